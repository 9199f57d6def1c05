import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { type ParsedEvent, parseEvent } from "~/lib/analytics/catalogue";
import { type Database, db as defaultDb } from "../db";
import { desktopUsageEvents } from "../db/schema";
import { recordUsage, type usageSchema } from "../desktop/devices.server";
import { storeEvents } from "./events.server";

type UsageReport = z.infer<typeof usageSchema>;
type UsageEvent = UsageReport["events"][number];
type ReportingDevice = Parameters<typeof recordUsage>[0];

// Its own key space for pg_advisory_xact_lock(int, int), apart from the migrations' single key.
const USAGE_LOCK_CLASS = 24_005;

/**
 * The client id of a device's feature_use events: a SHA-256 of its random id, never the device or
 * user id. The analytics table alone (or an export of it) then names no account, yet the cockpit
 * can still count distinct devices per feature; once the account is deleted its devices go with
 * it and nothing can link the hash back. The `desktop:` prefix keeps these apart from the
 * browsers' own client ids (UUIDs), so they never count as website visitors.
 */
export function featureUseClientId(deviceId: string): string {
  const digest = createHash("sha256").update(`pinout-feature-use:${deviceId}`).digest("hex");
  return `desktop:${digest.slice(0, 32)}`;
}

/** The events of a report the device has not sent before (the first of any repeated id). */
async function findNewUsageEvents(
  deviceId: string,
  events: UsageEvent[],
  database: Database,
): Promise<UsageEvent[]> {
  const ids = [...new Set(events.map((event) => event.id))];
  const known = await database
    .select({ eventId: desktopUsageEvents.eventId })
    .from(desktopUsageEvents)
    .where(
      and(eq(desktopUsageEvents.deviceId, deviceId), inArray(desktopUsageEvents.eventId, ids)),
    );
  const seen = new Set(known.map((row) => row.eventId));
  return events.filter((event) => {
    if (seen.has(event.id)) return false;
    seen.add(event.id);
    return true;
  });
}

/**
 * One feature_use per usage event, carrying its count of uses, at the time the app says it
 * happened (never in the future).
 */
function featureUseEvents(events: UsageEvent[], now: Date): (ParsedEvent & { at: Date })[] {
  return events.flatMap((event) => {
    const parsed = parseEvent("feature_use", { feature_name: event.feature, count: event.count });
    if (!parsed.ok) return [];
    const at = new Date(event.at);
    return [{ ...parsed.event, at: at > now ? now : at }];
  });
}

/**
 * Stores a usage report from the desktop app (`recordUsage`) and, in the same transaction, one
 * `feature_use` analytics event for each usage event stored for the first time: a resent report
 * adds neither usage nor events. Reports of one device are taken one at a time (an advisory lock)
 * so two copies sent at once cannot both count as new. The app asks for consent to usage data
 * itself (privacy policy), so these need no cookie. Returns how many usage events were new.
 */
export async function recordUsageWithFeatureUse(
  device: ReportingDevice,
  report: UsageReport,
  database: Database = defaultDb(),
): Promise<number> {
  return database.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${USAGE_LOCK_CLASS}, hashtext(${device.id}))`,
    );
    const fresh = await findNewUsageEvents(device.id, report.events, tx);
    const stored = await recordUsage(device, report, tx);
    await storeEvents(
      {
        ok: true,
        events: featureUseEvents(fresh, new Date()),
        clientId: featureUseClientId(device.id),
      },
      tx,
    );
    return stored;
  });
}
