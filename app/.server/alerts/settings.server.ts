/** Each admin's choice of alerts (/admin/settings): which kinds, at once or in the daily digest. */
import { desc, eq } from "drizzle-orm";
import type { AlertDelivery, AlertKind } from "~/lib/alerts";
import { assertAdmin, type Session } from "../auth/session";
import { type Database, db as defaultDb } from "../db";
import { adminAlerts, adminAlertSettings } from "../db/schema";

export interface AlertSettings {
  kinds: AlertKind[];
  delivery: AlertDelivery;
}

/** An admin's choice; nothing chosen until they choose. */
export async function alertSettingsOf(
  userId: string,
  database: Database = defaultDb(),
): Promise<AlertSettings> {
  const [row] = await database
    .select({ kinds: adminAlertSettings.kinds, delivery: adminAlertSettings.delivery })
    .from(adminAlertSettings)
    .where(eq(adminAlertSettings.userId, userId));
  return row ?? { kinds: [], delivery: "now" };
}

/**
 * Saves the signed-in admin's choice. A first choice of the digest starts after the newest
 * alert: it reports what happens from now on, not the site's history.
 */
export async function saveAlertSettings(
  session: Session,
  settings: AlertSettings,
  database: Database = defaultDb(),
): Promise<void> {
  assertAdmin(session);
  const [newest] = await database
    .select({ id: adminAlerts.id })
    .from(adminAlerts)
    .orderBy(desc(adminAlerts.id))
    .limit(1);
  await database
    .insert(adminAlertSettings)
    .values({
      userId: session.user.id,
      kinds: settings.kinds,
      delivery: settings.delivery,
      digestedThroughId: newest?.id ?? 0,
    })
    .onConflictDoUpdate({
      target: adminAlertSettings.userId,
      set: { kinds: settings.kinds, delivery: settings.delivery, updatedAt: new Date() },
    });
}

/** The newest alerts, for the settings page: what the choices would have sent. */
export async function recentAlerts(limit = 20, database: Database = defaultDb()) {
  return database
    .select({
      id: adminAlerts.id,
      kind: adminAlerts.kind,
      summary: adminAlerts.summary,
      path: adminAlerts.path,
      createdAt: adminAlerts.createdAt,
    })
    .from(adminAlerts)
    .orderBy(desc(adminAlerts.id))
    .limit(limit);
}
