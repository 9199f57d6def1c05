/**
 * The API limits' windows (update checks, the desktop API, callable functions), counted in this
 * process and shared in batches (issue 58, point 5; decision 0068). Every update check used to
 * upsert one row per client address in `rate_limit_hits`: thousands of installs behind one office
 * address queued on that row's lock, and a feed answered at 0.14× a bare server. Now a request
 * is decided from this process's count plus what the other processes had counted at the last
 * sync, and no request writes; every `API_COUNT_SYNC_MS` one statement adds each window's unsent
 * hits to the shared row and reads back the total. Across instances the limit can be passed by
 * what the other instances admit between two syncs (decision 0068 gives the bound). On the
 * embedded database one process owns the data (decision 0027): nothing is shared.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db";
import { env } from "../env";
import { logger } from "../logger";

export interface WindowHit {
  allowed: boolean;
  count: number;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
}

interface Window {
  /** When the window began (epoch ms), the shared row's start once synced. */
  startedAt: number;
  lengthMs: number;
  /** Hits of every process in the window as of the last sync (ours included). */
  shared: number;
  /** This process's hits not yet added to the shared row. */
  unsent: number;
  /** Shared through the database (PostgreSQL); the embedded database's process keeps its own. */
  sharing: boolean;
}

const windows = new Map<string, Window>();
let sweptAt = 0;
let timer: NodeJS.Timeout | undefined;
let syncing: Promise<void> | undefined;

/** Windows that ended are dropped (once a minute), unless they still have hits to send. */
function sweep(now: number) {
  if (now - sweptAt < 60_000) return;
  sweptAt = now;
  for (const [key, window] of windows)
    if (window.startedAt + window.lengthMs < now && window.unsent === 0) windows.delete(key);
}

/**
 * Counts one hit for `key` in a fixed window of `windowSeconds`: allowed while this process's
 * count plus the others' (as of the last sync) is at most `max`. With `shareThrough`, the hit is
 * added to the shared count at the next sync; without, the count is this process's alone.
 */
export function hitWindow(
  key: string,
  max: number,
  windowSeconds: number,
  shareThrough: Database | null,
): WindowHit {
  const now = Date.now();
  const lengthMs = windowSeconds * 1000;
  sweep(now);
  let window = windows.get(key);
  if (!window || window.startedAt + lengthMs <= now) {
    window = { startedAt: now, lengthMs, shared: 0, unsent: 0, sharing: shareThrough !== null };
    windows.set(key, window);
  }
  window.unsent += 1;
  const count = window.shared + window.unsent;
  if (shareThrough) scheduleSync(shareThrough);
  return {
    allowed: count <= max,
    count,
    retryAfter: Math.max(1, Math.ceil((window.startedAt + lengthMs - now) / 1000)),
  };
}

/** The first unsent hit after a sync starts the clock: an idle process wakes for nothing. */
function scheduleSync(database: Database) {
  if (timer) return;
  timer = setTimeout(() => {
    timer = undefined;
    void syncWindows(database).catch((error: unknown) =>
      logger().warn({ err: error }, "sharing the API limits' counts failed; kept for the next try"),
    );
  }, env().API_COUNT_SYNC_MS);
  timer.unref();
}

/**
 * Adds every window's unsent hits to its shared row and reads back the totals, in one statement
 * (rows in key order, so instances syncing at once lock them in the same order). A window whose
 * shared row ended starts again with these hits. One sync at a time; a failed one keeps its hits.
 */
export async function syncWindows(database: Database): Promise<void> {
  if (syncing) return syncing;
  syncing = (async () => {
    const sending = [...windows.entries()]
      .filter(([, window]) => window.sharing && window.unsent > 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, window]) => ({ key, window, hits: window.unsent }));
    if (sending.length === 0) return;
    // Every API limit's window is a minute; the rows go as one JSON parameter.
    const seconds = Math.max(...sending.map((entry) => entry.window.lengthMs / 1000));
    const batch = JSON.stringify(sending.map((entry) => ({ key: entry.key, hits: entry.hits })));
    const result = await database.execute(sql`
      insert into rate_limit_hits (key, count, window_start)
      select t.key, t.hits, now()
        from json_to_recordset(${batch}::json) as t(key text, hits int)
      on conflict (key) do update set
        count = case when rate_limit_hits.window_start < now() - make_interval(secs => ${seconds})
          then excluded.count else rate_limit_hits.count + excluded.count end,
        window_start = case when rate_limit_hits.window_start < now() - make_interval(secs => ${seconds})
          then now() else rate_limit_hits.window_start end
      returning key, count, (extract(epoch from window_start) * 1000)::float8 as started_ms`);
    const rows = (
      result as unknown as { rows: { key: string; count: number; started_ms: number }[] }
    ).rows;
    const byKey = new Map(sending.map((entry) => [entry.key, entry]));
    for (const row of rows) {
      const entry = byKey.get(row.key);
      if (!entry) continue;
      entry.window.unsent -= entry.hits;
      entry.window.shared = Number(row.count);
      entry.window.startedAt = Number(row.started_ms);
    }
  })().finally(() => {
    syncing = undefined;
  });
  return syncing;
}

/** Forgets every window (tests that start over in one process). */
export function resetWindows(): void {
  windows.clear();
  if (timer) clearTimeout(timer);
  timer = undefined;
}
