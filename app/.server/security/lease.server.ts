/**
 * A short lease on a name, shared by every instance through the database: work that must not run
 * twice at once for one person (starting a checkout) holds it, without keeping a transaction open
 * across a network call. A lease left by a process that died expires after `ttlSeconds`.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { rateLimitHits } from "../db/schema";

export class LeaseBusyError extends Error {
  override name = "LeaseBusyError";
}

/**
 * Runs `work` while holding the lease `name`; waits up to `waitMs` for another holder to finish,
 * then throws LeaseBusyError. A row of the rate-limit counter table is the lease (no table of its
 * own): inserted to take it, deleted to give it back.
 */
export async function withLease<T>(
  name: string,
  work: () => Promise<T>,
  options: { ttlSeconds?: number; waitMs?: number; database?: Database } = {},
): Promise<T> {
  const database = options.database ?? defaultDb();
  const key = `lease:${name}`;
  const ttl = options.ttlSeconds ?? 60;
  const deadline = Date.now() + (options.waitMs ?? 15_000);
  let heldSince: Date | undefined;
  for (;;) {
    // Taken when nobody holds it, or when the last holder's lease has run out.
    const [taken] = await database
      .insert(rateLimitHits)
      .values({ key, count: 1, windowStart: sql`date_trunc('milliseconds', clock_timestamp())` })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        set: { count: 1, windowStart: sql`date_trunc('milliseconds', clock_timestamp())` },
        setWhere: sql`${rateLimitHits.windowStart} < now() - make_interval(secs => ${ttl})`,
      })
      .returning({ windowStart: rateLimitHits.windowStart });
    if (taken) {
      heldSince = taken.windowStart;
      break;
    }
    if (Date.now() > deadline) throw new LeaseBusyError(`${name} is busy`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    return await work();
  } finally {
    // Only our own hold: one who took it over after it ran out keeps theirs.
    await database
      .delete(rateLimitHits)
      .where(and(eq(rateLimitHits.key, key), eq(rateLimitHits.windowStart, heldSince)))
      .catch(() => undefined);
  }
}
