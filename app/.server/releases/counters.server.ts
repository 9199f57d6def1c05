import { type Database, db as defaultDb } from "../db";
import { env } from "../env";
import { logger } from "../logger";
import {
  addAppVersion,
  addAssetDownload,
  addDelivery,
  type Delivery,
  addReleaseEvent,
  emptyBatch,
  isEmptyBatch,
  mergeBatch,
  type ReleaseEvent,
} from "./counter-batch";
import { writeCounterBatch } from "./stats.server";

/**
 * Download, update-check and app-version counters of this process, kept in memory and written
 * every STATS_FLUSH_MS (one upsert per key) and at shutdown: an update poll costs no write
 * (docs/decisions/0030). Counters only: never who.
 */
let pending = emptyBatch();
let timer: NodeJS.Timeout | undefined;
let flushing: Promise<boolean> | undefined;
let closed = false;

/** One more download or update check today (India time). */
export function countReleaseEvent(input: ReleaseEvent, now = new Date()): void {
  addReleaseEvent(pending, input, now);
  scheduleFlush();
}

/** One more update check from an app of this version today. */
export function countAppVersion(version: string, platform: string, now = new Date()): void {
  addAppVersion(pending, { version, platform }, now);
  scheduleFlush();
}

/** One delivery of a release file: whole, changed blocks only, or a delta (issue 58, point 6). */
export function countDelivery(
  input: Delivery,
  bytes: { served: number; full: number },
  now = new Date(),
): void {
  addDelivery(pending, input, bytes, now);
  scheduleFlush();
}

/** The all-time counter on the file itself (the dashboard's per-platform totals). */
export function countAssetDownload(assetId: string): void {
  addAssetDownload(pending, assetId);
  scheduleFlush();
}

/** The first count after a flush starts the clock: an idle process wakes for nothing. */
function scheduleFlush(): void {
  if (timer || closed) return;
  timer = setTimeout(() => {
    timer = undefined;
    // A failure is logged and the counts kept for the next interval.
    void flushCounters().catch(() => {});
  }, env().STATS_FLUSH_MS);
  // Never what keeps a process alive: shutdown flushes explicitly.
  timer.unref();
}

/**
 * Writes what was counted so far. One flush at a time, so a batch is never written twice; when
 * the write fails, its counts go back to be retried with the next interval. Resolves to whether
 * anything was written.
 */
export async function flushCounters(database?: Database): Promise<boolean> {
  while (flushing) await flushing.catch(() => {});
  const run = writePending(database ?? defaultDb());
  flushing = run;
  try {
    return await run;
  } finally {
    if (flushing === run) flushing = undefined;
  }
}

async function writePending(database: Database): Promise<boolean> {
  const batch = pending;
  if (isEmptyBatch(batch)) return false;
  pending = emptyBatch();
  try {
    await writeCounterBatch(batch, database);
    return true;
  } catch (error) {
    mergeBatch(pending, batch);
    logger().warn({ err: error }, "could not write download and update counters: retrying later");
    scheduleFlush();
    throw error;
  }
}

/**
 * At shutdown, once no request is left: the last counts are written and nothing is scheduled
 * again. A failure here loses them, so it is logged as an error with what was lost.
 */
export async function closeCounters(database?: Database): Promise<void> {
  closed = true;
  clearTimeout(timer);
  timer = undefined;
  try {
    await flushCounters(database);
  } catch (error) {
    logger().error(
      {
        err: error,
        lost: {
          releaseEvents: pending.releaseEvents.size,
          appVersions: pending.appVersions.size,
          assetDownloads: pending.assetDownloads.size,
        },
      },
      "download and update counters not written at shutdown",
    );
  }
}
