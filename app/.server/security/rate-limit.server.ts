import { sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { rateLimitHits } from "../db/schema";

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

/**
 * Counts one hit for `key` in a fixed window, atomically in the database so that every instance
 * shares the count. Allowed while the count is at most `max`.
 */
export async function hitRateLimit(
  key: string,
  max: number,
  windowSeconds: number,
  database: Database = defaultDb(),
): Promise<RateLimitResult> {
  const expired = sql`${rateLimitHits.windowStart} < now() - make_interval(secs => ${windowSeconds})`;
  const [row] = await database
    .insert(rateLimitHits)
    .values({ key, count: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimitHits.count} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${rateLimitHits.windowStart} end`,
      },
    })
    .returning({
      count: rateLimitHits.count,
      retryAfter: sql<number>`greatest(1, ceil(extract(epoch from (${rateLimitHits.windowStart} + make_interval(secs => ${windowSeconds}) - now()))))::int`,
    });
  const count = row?.count ?? 1;
  return { allowed: count <= max, count, retryAfter: Number(row?.retryAfter ?? windowSeconds) };
}
