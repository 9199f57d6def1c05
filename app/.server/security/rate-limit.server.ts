import { sql } from "drizzle-orm";
import type { MiddlewareFunction } from "react-router";
import { type Database, db as defaultDb } from "../db";
import { engineOf, prepared, type PreparedValue } from "../db/prepared";
import { oneTimeTokens, rateLimitHits } from "../db/schema";
import { env } from "../env";
import { requestContext } from "../request-context";
import { hitWindow } from "./shared-windows.server";
import { rateLimitClientKey } from "./client-key";

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

/**
 * Counts one hit for key `$1` in a fixed window of `$2` seconds, atomically in the database so
 * that every instance shares the count; returns the count and the seconds left in the window.
 */
const RATE_LIMIT_UPSERT = `insert into rate_limit_hits (key, count, window_start) values ($1, 1, now())
   on conflict (key) do update set
     count = case when rate_limit_hits.window_start < now() - make_interval(secs => $2)
       then 1 else rate_limit_hits.count + 1 end,
     window_start = case when rate_limit_hits.window_start < now() - make_interval(secs => $2)
       then now() else rate_limit_hits.window_start end
   returning count,
     greatest(1, ceil(extract(epoch from (window_start + make_interval(secs => $2) - now()))))::int
       as retry_after`;

/** A prepared statement: the limits that must hold exactly (support, sign-in steps, events). */
const countHit = prepared<{ count: number; retry_after: number }>(
  "rate_limit_hit",
  ["text", "float8"],
  RATE_LIMIT_UPSERT,
);

/** Counts one hit for `key`; allowed while the count is at most `max`. */
export async function hitRateLimit(
  key: string,
  max: number,
  windowSeconds: number,
  database: Database = defaultDb(),
): Promise<RateLimitResult> {
  const [row] = await countHit.run(database, [key, windowSeconds]);
  const count = row?.count ?? 1;
  return { allowed: count <= max, count, retryAfter: Number(row?.retry_after ?? windowSeconds) };
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

/** The API limits' window: requests per client per minute. */
const API_WINDOW_SECONDS = 60;

/**
 * Requests per client per window of each API group: update checks (`UPDATES_RATE_LIMIT`) come
 * from every installed app, many behind one address; the rest is `API_RATE_LIMIT`.
 */
export function apiLimitOf(group: string): number {
  return group === "updates" ? env().UPDATES_RATE_LIMIT : env().API_RATE_LIMIT;
}

function apiKey(group: string, clientIp: string): string {
  return `${group}:${rateLimitClientKey(clientIp)}`;
}

/**
 * Counts one request of an API group (`desktop`, `functions`, `updates`) from a client (IPv6 by
 * /64), without a database write: in this process, shared with the other processes on PostgreSQL
 * every API_COUNT_SYNC_MS (shared-windows.server.ts, decision 0068); the embedded database's one
 * process keeps its own.
 */
export async function countApiRequest(
  group: string,
  clientIp: string,
  database: Database = defaultDb(),
): Promise<RateLimitResult> {
  return hitWindow(
    apiKey(group, clientIp),
    apiLimitOf(group),
    API_WINDOW_SECONDS,
    engineOf(database) === "pglite" ? null : database,
  );
}

/** Where a request is counted: the API groups of its route's layouts, and the client. */
export interface ApiRequestCount {
  groups: readonly string[];
  clientIp: string;
  /** Called for each group once the count is done (kept even if what follows fails). */
  onCounted(group: string): void;
}

/**
 * A prepared read that also counts an API request (`/api/desktop/me`'s, decision 0032): the
 * count first, in every group in order (in memory: no write, decision 0068), then the read,
 * which does not run once a group refuses.
 */
export interface CountedRead<Row> {
  run(
    database: Database,
    values: readonly PreparedValue[],
    count?: ApiRequestCount,
  ): Promise<{ limit: RateLimitResult | null; rows: Row[] }>;
}

export function countedRead<Row extends object>(
  name: string,
  types: readonly string[],
  text: string,
): CountedRead<Row> {
  const read = prepared<Row>(name, types, text);
  return {
    async run(database, values, count) {
      let limit: RateLimitResult | null = null;
      for (const group of count?.groups ?? []) {
        limit = await countApiRequest(group, count!.clientIp, database);
        count!.onCounted(group);
        if (!limit.allowed) return { limit, rows: [] };
      }
      return { limit, rows: await read.run(database, values) };
    },
  };
}

/** The refusal past an API limit: its JSON body and headers (the middleware's and a fast answer's). */
export function rateLimitedAnswer(retryAfter: number) {
  return {
    status: 429 as const,
    body: { error: "rate_limited", error_description: "Too many requests. Try again shortly." },
    headers: { "Retry-After": String(retryAfter), "Cache-Control": "no-store" },
  };
}

const groupOfMiddleware = new WeakMap<object, string>();

/**
 * The group of an `apiRateLimit` middleware, or undefined for any other function: the server may
 * answer a route under such a layout before React Router (server/fast-answers.ts) by counting the
 * same request in the same group itself.
 */
export function apiRateLimitGroup(middleware: unknown): string | undefined {
  return typeof middleware === "function" ? groupOfMiddleware.get(middleware) : undefined;
}

/**
 * Route middleware for an API group: `limit` requests per client (IPv6 by /64) per minute, then
 * 429 with Retry-After. Server-side `auth.api` calls and our own endpoints skip Better Auth's
 * limiter, so the API counts for itself, shared by every instance through the database (in
 * memory on the embedded database, which one process owns). A request a fast answer already
 * counted before handing it to React Router (`countedRateLimits`) is not counted twice.
 */
export function apiRateLimit(group: string): MiddlewareFunction<Response> {
  const middleware: MiddlewareFunction<Response> = async ({ context }, next) => {
    const { clientIp, countedRateLimits } = context.get(requestContext);
    if (countedRateLimits?.has(group)) return next();
    const result = await countApiRequest(group, clientIp);
    if (!result.allowed) {
      const refusal = rateLimitedAnswer(result.retryAfter);
      return Response.json(refusal.body, { status: refusal.status, headers: refusal.headers });
    }
    return next();
  };
  groupOfMiddleware.set(middleware, group);
  return middleware;
}
