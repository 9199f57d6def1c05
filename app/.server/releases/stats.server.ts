import { and, desc, eq, gte, sql } from "drizzle-orm";
import { istDay } from "~/lib/india-time";
import { type Database, db as defaultDb } from "../db";
import {
  appVersionDailyCounts,
  desktopDevices,
  releaseAssets,
  releaseDailyCounts,
} from "../db/schema";

export interface ReleaseEvent {
  version: string;
  platform: string;
  arch: string;
  channel: string;
  event: "download" | "update_check";
}

/** One more download or update check today (India time). Counters only: never who. */
export async function countReleaseEvent(
  input: ReleaseEvent,
  database: Database = defaultDb(),
  now = new Date(),
): Promise<void> {
  await database
    .insert(releaseDailyCounts)
    .values({ ...input, day: istDay(now), count: 1 })
    .onConflictDoUpdate({
      target: [
        releaseDailyCounts.day,
        releaseDailyCounts.version,
        releaseDailyCounts.platform,
        releaseDailyCounts.arch,
        releaseDailyCounts.channel,
        releaseDailyCounts.event,
      ],
      set: { count: sql`${releaseDailyCounts.count} + 1` },
    });
}

/** One more update check from an app of this version today. */
export async function countAppVersion(
  version: string,
  platform: string,
  database: Database = defaultDb(),
  now = new Date(),
): Promise<void> {
  await database
    .insert(appVersionDailyCounts)
    .values({ day: istDay(now), version, platform, count: 1 })
    .onConflictDoUpdate({
      target: [
        appVersionDailyCounts.day,
        appVersionDailyCounts.version,
        appVersionDailyCounts.platform,
      ],
      set: { count: sql`${appVersionDailyCounts.count} + 1` },
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
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()]
    .map(([version, count]) => ({ version, count, share: sum === 0 ? 0 : count / sum }))
    .sort((a, b) => b.count - a.count);
}

/** The all-time counter on the file itself (the dashboard's per-platform totals). */
export async function countAssetDownload(assetId: string, database: Database = defaultDb()) {
  await database
    .update(releaseAssets)
    .set({ downloadCount: sql`${releaseAssets.downloadCount} + 1` })
    .where(eq(releaseAssets.id, assetId));
}
