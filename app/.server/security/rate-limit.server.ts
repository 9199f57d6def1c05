import { sql } from "drizzle-orm";
import type { MiddlewareFunction } from "react-router";
import { type Database, databaseHandle, db as defaultDb } from "../db";
import { oneTimeTokens, rateLimitHits } from "../db/schema";
import { env } from "../env";
import { requestContext } from "../request-context";
import { rateLimitClientKey } from "./client-key";

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

/**
 * The API limits on the embedded database: it belongs to one process (its folder lock, decision
 * 0027; several processes need PostgreSQL), so nothing else could share the counts. The same fixed
 * window as the upsert above, kept in that process's memory, without a write on every API call
 * (decision 0032). A restart forgets the current windows (at most a minute of counting).
 */
const windows = new Map<string, { count: number; startedAt: number }>();
/** Ended windows (a minute long) are dropped once a minute. */
let sweptAt = 0;
const MAX_WINDOW_MS = 60 * 1000;

function hitInMemory(key: string, max: number, windowSeconds: number): RateLimitResult {
  const now = Date.now();
  const windowMs = windowSeconds * 1000;
  if (now - sweptAt > 60_000) {
    sweptAt = now;
    for (const [name, window] of windows)
      if (window.startedAt < now - MAX_WINDOW_MS) windows.delete(name);
  }
  let window = windows.get(key);
  if (!window || window.startedAt < now - windowMs) {
    window = { count: 0, startedAt: now };
    windows.set(key, window);
  }
  window.count += 1;
  const retryAfter = Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000));
  return { allowed: window.count <= max, count: window.count, retryAfter };
}

/**
 * Removes counters whose window ended long ago and one-time tokens past their expiry: both tables
 * only grow otherwise. Windows here are at most an hour; a day of slack keeps any in use.
 */
export async function pruneExpiredSecurityRows(database: Database = defaultDb()) {
  const hits = await database
    .delete(rateLimitHits)
    .where(sql`${rateLimitHits.windowStart} < now() - interval '1 day'`)
    .returning({ key: rateLimitHits.key });
  const tokens = await database
    .delete(oneTimeTokens)
    .where(sql`${oneTimeTokens.expiresAt} < now() - interval '1 day'`)
    .returning({ id: oneTimeTokens.tokenHash });
  return { rateLimitHits: hits.length, oneTimeTokens: tokens.length };
}

/**
 * Route middleware for an API group: `limit` requests per client (IPv6 by /64) per minute, then
 * 429 with Retry-After. Server-side `auth.api` calls and our own endpoints skip Better Auth's
 * limiter, so the API counts for itself, shared by every instance through the database (in
 * memory on the embedded database, which one process owns).
 */
export function apiRateLimit(group: string): MiddlewareFunction<Response> {
  return async ({ context }, next) => {
    const { clientIp } = context.get(requestContext);
    const key = `${group}:${rateLimitClientKey(clientIp)}`;
    const result =
      databaseHandle().engine === "pglite"
        ? hitInMemory(key, env().API_RATE_LIMIT, 60)
        : await hitRateLimit(key, env().API_RATE_LIMIT, 60);
    if (!result.allowed)
      return Response.json(
        { error: "rate_limited", error_description: "Too many requests. Try again shortly." },
        {
          status: 429,
          headers: { "Retry-After": String(result.retryAfter), "Cache-Control": "no-store" },
        },
      );
    return next();
  };
}
