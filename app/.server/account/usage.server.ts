import { and, eq, gte, isNull, lt, max, sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { desktopDevices, desktopUsageEvents } from "../db/schema";

/** How far back the usage page looks, in calendar days including today. */
export const USAGE_DAYS = 30;
/** Days are the customer's days: the product is sold in India. */
export const USAGE_TIME_ZONE = "Asia/Kolkata";

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(instant: Date, timeZone: string) {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

function parseDay(day: string): { year: number; month: number; day: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new Error(`not a day key: ${day}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayKey(instant: Date, timeZone: string = USAGE_TIME_ZONE): string {
  const { year, month, day } = partsIn(instant, timeZone);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** A day key moved by whole calendar days (calendar arithmetic: no zone is involved). */
export function addDays(day: string, days: number): string {
  const { year, month, day: date } = parseDay(day);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** How far a zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function zoneOffsetMs(instant: Date, timeZone: string): number {
  const p = partsIn(instant, timeZone);
  const wallAsUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wallAsUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The first instant of a calendar day in a time zone (midnight there). */
export function startOfDay(day: string, timeZone: string = USAGE_TIME_ZONE): Date {
  const { year, month, day: date } = parseDay(day);
  const midnightUtc = Date.UTC(year, month - 1, date);
  // The offset at the first guess can differ from the one at the answer across a DST change, so
  // it is measured again there. India has no DST; other zones are handled for the tests' sake.
  const first = midnightUtc - zoneOffsetMs(new Date(midnightUtc), timeZone);
  return new Date(midnightUtc - zoneOffsetMs(new Date(first), timeZone));
}

export interface UsageWindow {
  /** Every day of the window, oldest first, ending today. */
  days: string[];
  /** Midnight of the first day, inclusive. */
  from: Date;
  /** Midnight after today, exclusive: reports stamped in the future are left out. */
  to: Date;
}

export function usageWindow(
  now: Date,
  count: number = USAGE_DAYS,
  timeZone: string = USAGE_TIME_ZONE,
): UsageWindow {
  const today = dayKey(now, timeZone);
  const days = Array.from({ length: count }, (_, index) => addDays(today, index - (count - 1)));
  return {
    days,
    from: startOfDay(days[0] ?? today, timeZone),
    to: startOfDay(addDays(today, 1), timeZone),
  };
}

/** One aggregate row from the database: a device's use of a feature on one day. */
export interface UsageGroup {
  deviceId: string;
  deviceName: string;
  platform: string;
  feature: string;
  day: string;
  total: number;
  lastUsedAt: Date;
}

export interface DayTotal {
  day: string;
  total: number;
}

export interface DeviceFeatureUsage {
  deviceId: string;
  deviceName: string;
  platform: string;
  feature: string;
  total: number;
  lastUsedAt: string;
}

/** Totals per day over the window, with a zero for every day without use. */
export function totalsPerDay(groups: readonly UsageGroup[], days: readonly string[]): DayTotal[] {
  const totals = new Map(days.map((day) => [day, 0]));
  for (const group of groups) {
    const current = totals.get(group.day);
    // A day outside the window (a clock far off on the device) is not drawn.
    if (current !== undefined) totals.set(group.day, current + group.total);
  }
  return days.map((day) => ({ day, total: totals.get(day) ?? 0 }));
}

/** Totals per device and feature, most used first, then by device name and feature. */
export function totalsPerDeviceFeature(groups: readonly UsageGroup[]): DeviceFeatureUsage[] {
  const merged = new Map<string, Omit<DeviceFeatureUsage, "lastUsedAt"> & { lastUsedAt: Date }>();
  for (const group of groups) {
    const key = `${group.deviceId}\u0000${group.feature}`;
    const entry = merged.get(key);
    if (!entry) {
      merged.set(key, {
        deviceId: group.deviceId,
        deviceName: group.deviceName,
        platform: group.platform,
        feature: group.feature,
        total: group.total,
        lastUsedAt: group.lastUsedAt,
      });
    } else {
      entry.total += group.total;
      if (group.lastUsedAt > entry.lastUsedAt) entry.lastUsedAt = group.lastUsedAt;
    }
  }
  return [...merged.values()]
    .sort(
      (a, b) =>
        b.total - a.total ||
        a.deviceName.localeCompare(b.deviceName) ||
        a.feature.localeCompare(b.feature),
    )
    .map((entry) => ({ ...entry, lastUsedAt: entry.lastUsedAt.toISOString() }));
}

/**
 * Newest first: 2.10.0 before 2.9.1, and a release before its own pre-releases (2.1.0 before
 * 2.1.0-beta.2). Versions are free text from the app, so non-numeric parts compare as text.
 */
export function compareVersionsDesc(a: string, b: string): number {
  const [coreA = "", ...preA] = a.split("-");
  const [coreB = "", ...preB] = b.split("-");
  const left = coreA.split(".");
  const right = coreB.split(".");
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const x = left[index] ?? "0";
    const y = right[index] ?? "0";
    const difference =
      /^\d+$/.test(x) && /^\d+$/.test(y)
        ? Number(y) - Number(x)
        : y.localeCompare(x, "en", { numeric: true });
    if (difference !== 0) return difference;
  }
  if (preA.length === 0 || preB.length === 0) return preA.length - preB.length;
  return preB.join("-").localeCompare(preA.join("-"), "en", { numeric: true });
}

export interface VersionInUse {
  version: string;
  /** Names of signed-in devices that last reported this version. */
  devices: string[];
  /** Usage counted on this version during the window. */
  total: number;
}

/** Versions of signed-in devices and of the window's usage, newest version first. */
export function versionsInUse(
  activeDevices: readonly { name: string; appVersion: string }[],
  usage: readonly { appVersion: string; total: number }[],
): VersionInUse[] {
  const versions = new Map<string, VersionInUse>();
  const entry = (version: string) => {
    let found = versions.get(version);
    if (!found) {
      found = { version, devices: [], total: 0 };
      versions.set(version, found);
    }
    return found;
  };
  for (const device of activeDevices) entry(device.appVersion).devices.push(device.name);
  for (const row of usage) entry(row.appVersion).total += row.total;
  return [...versions.values()].sort((a, b) => compareVersionsDesc(a.version, b.version));
}

export interface UsageReport {
  timeZone: string;
  days: DayTotal[];
  total: number;
  perDevice: DeviceFeatureUsage[];
  versions: VersionInUse[];
}

// A constant of this module, written into the SQL text so GROUP BY sees the same expression as
// SELECT (a bound parameter would be a different one each time it appears).
const ZONE_SQL = sql.raw(`'${USAGE_TIME_ZONE.replace(/'/g, "")}'`);

/** The usage a user's desktop apps reported over the last USAGE_DAYS days (Asia/Kolkata days). */
export async function usageReport(
  userId: string,
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<UsageReport> {
  const window = usageWindow(now);
  const inWindow = and(
    eq(desktopUsageEvents.userId, userId),
    gte(desktopUsageEvents.occurredAt, window.from),
    lt(desktopUsageEvents.occurredAt, window.to),
  );
  const day = sql<string>`to_char(${desktopUsageEvents.occurredAt} at time zone ${ZONE_SQL}, 'YYYY-MM-DD')`;
  // Summed as bigint: counts of up to a million per event add up past int4.
  const total = sql<number>`coalesce(sum(${desktopUsageEvents.count}), 0)::bigint`.mapWith(Number);

  const [groups, usageVersions, activeDevices] = await Promise.all([
    database
      .select({
        deviceId: desktopUsageEvents.deviceId,
        deviceName: desktopDevices.name,
        platform: desktopDevices.platform,
        feature: desktopUsageEvents.feature,
        day,
        total,
        lastUsedAt: max(desktopUsageEvents.occurredAt),
      })
      .from(desktopUsageEvents)
      .innerJoin(desktopDevices, eq(desktopDevices.id, desktopUsageEvents.deviceId))
      .where(inWindow)
      .groupBy(
        desktopUsageEvents.deviceId,
        desktopDevices.name,
        desktopDevices.platform,
        desktopUsageEvents.feature,
        day,
      ),
    database
      .select({ appVersion: desktopUsageEvents.appVersion, total })
      .from(desktopUsageEvents)
      .where(inWindow)
      .groupBy(desktopUsageEvents.appVersion),
    database
      .select({ name: desktopDevices.name, appVersion: desktopDevices.appVersion })
      .from(desktopDevices)
      .where(and(eq(desktopDevices.userId, userId), isNull(desktopDevices.revokedAt))),
  ]);

  const rows: UsageGroup[] = groups.map((group) => ({
    ...group,
    // max() of a non-empty group is never null; the fallback only satisfies the type.
    lastUsedAt: group.lastUsedAt ?? window.from,
  }));
  const days = totalsPerDay(rows, window.days);
  return {
    timeZone: USAGE_TIME_ZONE,
    days,
    total: days.reduce((sum, entry) => sum + entry.total, 0),
    perDevice: totalsPerDeviceFeature(rows),
    versions: versionsInUse(activeDevices, usageVersions),
  };
}
