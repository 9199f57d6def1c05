import { and, between, gte, isNull, lt, sql } from "drizzle-orm";
import type { Lane } from "../jobs/define";
import { staleLanes } from "../admin/jobs.server";
import { compareVersionsDesc } from "../account/usage.server";
import { type Database, db as defaultDb } from "../db";
import { appVersionDailyCounts, desktopDevices, desktopUsageEvents } from "../db/schema";
import type { Period } from "./period";
import { dailyRows } from "./rollup.server";
import { totalsBy } from "./traffic.server";

/** Product health over a period: app versions in use, active devices, the site's own errors. */
export interface Health {
  versions: { version: string; platform: string; devices: number; updateChecks: number }[];
  devicesPerDay: { day: string; devices: number }[];
  exceptions: {
    type: string;
    location: string;
    count: number;
    firstSeen: Date;
    lastSeen: Date;
  }[];
  features: { feature: string; uses: number }[];
  stuckLanes: { lane: Lane; minutes: number }[];
}

const DAY = sql<string>`to_char((${desktopUsageEvents.occurredAt} at time zone 'UTC') + interval '330 minutes', 'YYYY-MM-DD')`;

export async function healthFor(period: Period, database: Database = defaultDb()): Promise<Health> {
  const [checks, devices, perDay, rows, stuck] = await Promise.all([
    database
      .select({
        version: appVersionDailyCounts.version,
        platform: appVersionDailyCounts.platform,
        count: sql<number>`sum(${appVersionDailyCounts.count})::int`,
      })
      .from(appVersionDailyCounts)
      .where(between(appVersionDailyCounts.day, period.fromDay, period.toDay))
      .groupBy(appVersionDailyCounts.version, appVersionDailyCounts.platform),
    // A signed-in device counts once, by the version it last reported.
    database
      .select({
        version: desktopDevices.appVersion,
        platform: desktopDevices.platform,
        count: sql<number>`count(*)::int`,
      })
      .from(desktopDevices)
      .where(
        and(
          isNull(desktopDevices.revokedAt),
          gte(desktopDevices.lastSeenAt, period.from),
          lt(desktopDevices.lastSeenAt, period.to),
        ),
      )
      .groupBy(desktopDevices.appVersion, desktopDevices.platform),
    database
      .select({
        day: DAY,
        devices: sql<number>`count(distinct ${desktopUsageEvents.deviceId})::int`,
      })
      .from(desktopUsageEvents)
      .where(
        and(
          gte(desktopUsageEvents.occurredAt, period.from),
          lt(desktopUsageEvents.occurredAt, period.to),
        ),
      )
      .groupBy(sql`1`),
    dailyRows(period.days, ["exception", "feature"], database),
    staleLanes(database),
  ]);

  const versions = new Map<string, Health["versions"][number]>();
  const entry = (version: string, platform: string) => {
    const key = `${platform}\u0000${version}`;
    const known = versions.get(key) ?? { version, platform, devices: 0, updateChecks: 0 };
    versions.set(key, known);
    return known;
  };
  for (const row of checks) entry(row.version, row.platform).updateChecks += Number(row.count);
  for (const row of devices) entry(row.version, row.platform).devices += Number(row.count);

  const exceptions = new Map<string, Health["exceptions"][number]>();
  for (const row of rows.filter((row) => row.metric === "exception")) {
    const key = `${row.dim}\u0000${row.dim2}`;
    const known = exceptions.get(key);
    if (!known)
      exceptions.set(key, {
        type: row.dim,
        location: row.dim2,
        count: row.events,
        firstSeen: new Date(row.firstAt),
        lastSeen: new Date(row.lastAt),
      });
    else {
      known.count += row.events;
      if (new Date(row.firstAt) < known.firstSeen) known.firstSeen = new Date(row.firstAt);
      if (new Date(row.lastAt) > known.lastSeen) known.lastSeen = new Date(row.lastAt);
    }
  }
  const perDayMap = new Map(perDay.map((row) => [row.day, Number(row.devices)]));
  return {
    versions: [...versions.values()].sort(
      (a, b) => a.platform.localeCompare(b.platform) || compareVersionsDesc(a.version, b.version),
    ),
    devicesPerDay: period.days.map((day) => ({ day, devices: perDayMap.get(day) ?? 0 })),
    exceptions: [...exceptions.values()]
      .sort((a, b) => b.count - a.count || b.lastSeen.getTime() - a.lastSeen.getTime())
      .slice(0, 20),
    features: totalsBy(
      rows.filter((row) => row.metric === "feature"),
      (row) => row.dim,
    )
      .slice(0, 10)
      .map((row) => ({ feature: row.key, uses: row.events })),
    stuckLanes: stuck,
  };
}
