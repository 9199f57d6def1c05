import { istDay } from "~/lib/india-time";

export interface ReleaseEvent {
  version: string;
  platform: string;
  arch: string;
  channel: string;
  event: "download" | "update_check";
}

export interface ReleaseEventCount extends ReleaseEvent {
  day: string;
  count: number;
}

/** How a file was delivered (issue 58, point 6): whole, changed blocks only, or a delta. */
export type DeliveryKind = "full" | "differential" | "delta";

export interface Delivery {
  version: string;
  platform: string;
  kind: DeliveryKind;
}

export interface DeliveryCount extends Delivery {
  day: string;
  count: number;
  bytesServed: number;
  bytesFull: number;
}

export interface AppVersionCount {
  day: string;
  version: string;
  platform: string;
  count: number;
}

/**
 * Counts not yet written, summed per database row: one entry per key however many requests
 * counted it, so a flush is one upsert per key (docs/decisions/0030).
 */
export interface CounterBatch {
  releaseEvents: Map<string, ReleaseEventCount>;
  appVersions: Map<string, AppVersionCount>;
  /** release_assets.download_count by asset id. */
  assetDownloads: Map<string, number>;
  deliveries: Map<string, DeliveryCount>;
}

export function emptyBatch(): CounterBatch {
  return {
    releaseEvents: new Map(),
    appVersions: new Map(),
    assetDownloads: new Map(),
    deliveries: new Map(),
  };
}

export function isEmptyBatch(batch: CounterBatch): boolean {
  return (
    batch.releaseEvents.size === 0 &&
    batch.appVersions.size === 0 &&
    batch.assetDownloads.size === 0 &&
    batch.deliveries.size === 0
  );
}

// JSON of the tuple: no separator a client-sent value could contain can make two keys collide.
const releaseEventKey = (day: string, row: ReleaseEvent) =>
  JSON.stringify([day, row.version, row.platform, row.arch, row.channel, row.event]);
const appVersionKey = (row: Omit<AppVersionCount, "count">) =>
  JSON.stringify([row.day, row.version, row.platform]);

/** Adds `count` to a release event's row of the India day of `now`. */
export function addReleaseEvent(
  batch: CounterBatch,
  input: ReleaseEvent,
  now: Date,
  count = 1,
): void {
  // Every update check lands here: the row is made only the first time its key is seen.
  const day = istDay(now);
  const key = releaseEventKey(day, input);
  const entry = batch.releaseEvents.get(key);
  if (entry) entry.count += count;
  else batch.releaseEvents.set(key, { ...input, day, count });
}

export function addAppVersion(
  batch: CounterBatch,
  input: { version: string; platform: string },
  now: Date,
  count = 1,
): void {
  const row = { version: input.version, platform: input.platform, day: istDay(now) };
  const key = appVersionKey(row);
  const entry = batch.appVersions.get(key);
  if (entry) entry.count += count;
  else batch.appVersions.set(key, { ...row, count });
}

export function addAssetDownload(batch: CounterBatch, assetId: string, count = 1): void {
  batch.assetDownloads.set(assetId, (batch.assetDownloads.get(assetId) ?? 0) + count);
}

/** Adds deliveries (and their bytes) to the row of the India day of `now`. */
export function addDelivery(
  batch: CounterBatch,
  input: Delivery,
  bytes: { served: number; full: number },
  now: Date,
  count = 1,
): void {
  const row = { ...input, day: istDay(now) };
  const key = JSON.stringify([row.day, row.version, row.platform, row.kind]);
  const entry = batch.deliveries.get(key);
  if (entry) {
    entry.count += count;
    entry.bytesServed += bytes.served;
    entry.bytesFull += bytes.full;
  } else
    batch.deliveries.set(key, { ...row, count, bytesServed: bytes.served, bytesFull: bytes.full });
}

/** Adds every count of `from` to `into` (a batch whose write failed goes back to be retried). */
export function mergeBatch(into: CounterBatch, from: CounterBatch): void {
  for (const row of from.releaseEvents.values()) {
    const { day, count, ...event } = row;
    addReleaseEvent(into, event, dayStart(day), count);
  }
  for (const row of from.appVersions.values())
    addAppVersion(into, row, dayStart(row.day), row.count);
  for (const [assetId, count] of from.assetDownloads) addAssetDownload(into, assetId, count);
  for (const row of from.deliveries.values()) {
    const { day, count, bytesServed, bytesFull, ...delivery } = row;
    addDelivery(into, delivery, { served: bytesServed, full: bytesFull }, dayStart(day), count);
  }
}

/** A moment inside India day `day` (noon there), so istDay gives `day` back. */
function dayStart(day: string): Date {
  return new Date(`${day}T12:00:00+05:30`);
}

/**
 * The rows of a batch sorted by key: every instance then locks the rows of a multi-row upsert
 * in the same order, so two flushing at once wait for each other instead of deadlocking.
 */
export function sortedRows<T>(entries: Map<string, T>): T[] {
  return [...entries.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}
