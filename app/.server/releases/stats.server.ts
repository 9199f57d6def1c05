import { and, desc, eq, gte, sql } from "drizzle-orm";
import { istDay } from "~/lib/india-time";
import { type Database, db as defaultDb } from "../db";
import { type CounterBatch, isEmptyBatch, sortedRows } from "./counter-batch";
import { OTHER_VERSION } from "./versions";
import {
  appVersionDailyCounts,
  desktopDevices,
  releaseAssets,
  releaseDailyCounts,
  releaseDeliveries,
} from "../db/schema";

/**
 * Writes a batch of counts in one transaction: one multi-row upsert per table that adds to what
 * is stored (another instance may have written the same rows meanwhile), and one update per
 * file. Rows go in key order so instances flushing at once cannot deadlock.
 */
export async function writeCounterBatch(
  batch: CounterBatch,
  database: Database = defaultDb(),
): Promise<void> {
  if (isEmptyBatch(batch)) return;
  const events = sortedRows(batch.releaseEvents);
  const versions = sortedRows(batch.appVersions);
  const assets = [...batch.assetDownloads.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const deliveries = sortedRows(batch.deliveries);
  await database.transaction(async (tx) => {
    if (events.length > 0)
      await tx
        .insert(releaseDailyCounts)
        .values(events)
        .onConflictDoUpdate({
          target: [
            releaseDailyCounts.day,
            releaseDailyCounts.version,
            releaseDailyCounts.platform,
            releaseDailyCounts.arch,
            releaseDailyCounts.channel,
            releaseDailyCounts.event,
          ],
          set: { count: sql`${releaseDailyCounts.count} + excluded.count` },
        });
    if (versions.length > 0)
      await tx
        .insert(appVersionDailyCounts)
        .values(versions)
        .onConflictDoUpdate({
          target: [
            appVersionDailyCounts.day,
            appVersionDailyCounts.version,
            appVersionDailyCounts.platform,
          ],
          set: { count: sql`${appVersionDailyCounts.count} + excluded.count` },
        });
    if (deliveries.length > 0)
      await tx
        .insert(releaseDeliveries)
        .values(deliveries)
        .onConflictDoUpdate({
          target: [
            releaseDeliveries.day,
            releaseDeliveries.version,
            releaseDeliveries.platform,
            releaseDeliveries.kind,
          ],
          set: {
            count: sql`${releaseDeliveries.count} + excluded.count`,
            bytesServed: sql`${releaseDeliveries.bytesServed} + excluded.bytes_served`,
            bytesFull: sql`${releaseDeliveries.bytesFull} + excluded.bytes_full`,
          },
        });
    for (const [assetId, count] of assets)
      await tx
        .update(releaseAssets)
        .set({ downloadCount: sql`${releaseAssets.downloadCount} + ${count}` })
        .where(eq(releaseAssets.id, assetId));
  });
}

/** Downloads per day for the last `days` days, zero-filled, oldest first. */
export async function downloadsPerDay(
  days = 30,
  database: Database = defaultDb(),
  now = new Date(),
): Promise<{ day: string; downloads: number }[]> {
  const list = Array.from({ length: days }, (_, index) =>
    istDay(new Date(now.getTime() - (days - 1 - index) * 86_400_000)),
  );
  const rows = await database
    .select({
      day: releaseDailyCounts.day,
      total: sql<number>`sum(${releaseDailyCounts.count})::int`,
    })
    .from(releaseDailyCounts)
    .where(
      and(
        gte(releaseDailyCounts.day, list[0] ?? ""),
        sql`${releaseDailyCounts.event} = 'download'`,
      ),
    )
    .groupBy(releaseDailyCounts.day);
  const byDay = new Map(rows.map((row) => [row.day, Number(row.total)]));
  return list.map((day) => ({ day, downloads: byDay.get(day) ?? 0 }));
}

/** Downloads and update checks per release version (all time). */
export async function countsPerVersion(database: Database = defaultDb()) {
  const rows = await database
    .select({
      version: releaseDailyCounts.version,
      event: releaseDailyCounts.event,
      total: sql<number>`sum(${releaseDailyCounts.count})::int`,
    })
    .from(releaseDailyCounts)
    .groupBy(releaseDailyCounts.version, releaseDailyCounts.event);
  const result = new Map<string, { downloads: number; updateChecks: number }>();
  for (const row of rows) {
    const entry = result.get(row.version) ?? { downloads: 0, updateChecks: 0 };
    if (row.event === "download") entry.downloads += Number(row.total);
    else entry.updateChecks += Number(row.total);
    result.set(row.version, entry);
  }
  return result;
}

/**
 * The share of app versions in use over the last 30 days: signed-in devices seen (each counted
 * once, by the version it last reported) plus anonymous update checks that reported a version.
 */
export async function activeVersionShare(
  database: Database = defaultDb(),
  now = new Date(),
): Promise<{ version: string; count: number; share: number }[]> {
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const devices = await database
    .select({ version: desktopDevices.appVersion, total: sql<number>`count(*)::int` })
    .from(desktopDevices)
    .where(gte(desktopDevices.lastSeenAt, since))
    .groupBy(desktopDevices.appVersion);
  const checks = await database
    .select({
      version: appVersionDailyCounts.version,
      total: sql<number>`sum(${appVersionDailyCounts.count})::int`,
    })
    .from(appVersionDailyCounts)
    .where(gte(appVersionDailyCounts.day, istDay(since)))
    .groupBy(appVersionDailyCounts.version)
    .orderBy(desc(sql`2`));
  const totals = new Map<string, number>();
  for (const row of [...devices, ...checks])
    totals.set(row.version, (totals.get(row.version) ?? 0) + Number(row.total));
  return versionShares(totals);
}

/** How many versions the operator's pages list by name; the rest are one "other" row. */
export const VERSIONS_LISTED = 12;

/**
 * Shares of the counted versions, largest first: the first `listed` by name, every other one
 * (and any already counted as "other") folded into one "other" row, last. A device reports its
 * version in a header, so the list must stay short whatever is reported (issue 32, point 2).
 */
export function versionShares(
  totals: ReadonlyMap<string, number>,
  listed = VERSIONS_LISTED,
): { version: string; count: number; share: number }[] {
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  const share = (count: number) => (sum === 0 ? 0 : count / sum);
  const named = [...totals.entries()]
    .filter(([version]) => version !== OTHER_VERSION)
    .sort((a, b) => b[1] - a[1]);
  const other =
    (totals.get(OTHER_VERSION) ?? 0) +
    named.slice(listed).reduce((total, [, count]) => total + count, 0);
  const rows = named
    .slice(0, listed)
    .map(([version, count]) => ({ version, count, share: share(count) }));
  if (other > 0) rows.push({ version: OTHER_VERSION, count: other, share: share(other) });
  return rows;
}

/** A version's deliveries per platform and kind, all time (the release page, issue 58). */
export async function deliveriesOf(version: string, database: Database = defaultDb()) {
  return database
    .select({
      platform: releaseDeliveries.platform,
      kind: releaseDeliveries.kind,
      count: sql<number>`sum(${releaseDeliveries.count})::int`,
      bytesServed: sql<number>`sum(${releaseDeliveries.bytesServed})::float8`,
      bytesFull: sql<number>`sum(${releaseDeliveries.bytesFull})::float8`,
    })
    .from(releaseDeliveries)
    .where(eq(releaseDeliveries.version, version))
    .groupBy(releaseDeliveries.platform, releaseDeliveries.kind)
    .orderBy(releaseDeliveries.platform, releaseDeliveries.kind);
}
