/**
 * Raising an alert (issue 33, point 3): stored once per event (its key is unique, so the same
 * event raised again by a redelivered webhook or a second instance is one alert), and mailed at
 * once to each admin who chose that kind with "at once"; the daily digest takes the others.
 * Called inside the transaction that records the event: the alert exists exactly when it does.
 */
import { eq, sql } from "drizzle-orm";
import { ALERT_KIND_LABELS, type AlertKind } from "~/lib/alerts";
import { roleOf } from "../auth/role";
import { adminAlerts, adminAlertSettings, user as users } from "../db/schema";
import { env } from "../env";
import type { Executor } from "../db";
import { alertMessage } from "../mail/alert-templates";
import { queueMail } from "../mail/outbox.server";

export interface Alert {
  kind: AlertKind;
  /** What makes this event itself, unique across all alerts ("ticket-new:<ticket id>"). */
  key: string;
  /** One sentence for the operator. */
  summary: string;
  /** The admin page that deals with it. */
  path: string;
}

/** Whom an alert of `kind` reaches, and how: admins (by `roleOf`) who chose it. */
export async function alertRecipients(
  executor: Executor,
  kind: AlertKind,
): Promise<{ userId: string; email: string; name: string; delivery: "now" | "digest" }[]> {
  const rows = await executor
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      emailVerified: users.emailVerified,
      role: users.role,
      delivery: adminAlertSettings.delivery,
    })
    .from(adminAlertSettings)
    .innerJoin(users, eq(users.id, adminAlertSettings.userId))
    .where(sql`${adminAlertSettings.kinds} @> ${JSON.stringify([kind])}::jsonb`);
  // Someone who stopped being an admin keeps their row but gets nothing.
  return rows
    .filter((row) => roleOf(row) === "admin")
    .map(({ userId, email, name, delivery }) => ({ userId, email, name, delivery }));
}

/** Stores the alert (once) and queues its mail to the admins who want it at once. */
export async function raiseAlert(executor: Executor, alert: Alert): Promise<boolean> {
  const [stored] = await executor
    .insert(adminAlerts)
    .values({ kind: alert.kind, eventKey: alert.key, summary: alert.summary, path: alert.path })
    .onConflictDoNothing({ target: adminAlerts.eventKey })
    .returning({ id: adminAlerts.id });
  if (!stored) return false;
  const url = `${env().SITE_URL}${alert.path}`;
  for (const admin of await alertRecipients(executor, alert.kind)) {
    if (admin.delivery !== "now") continue;
    await queueMail(
      executor,
      alertMessage({
        to: admin.email,
        name: admin.name,
        kind: ALERT_KIND_LABELS[alert.kind],
        summary: alert.summary,
        url,
      }),
      `alert:${stored.id}:${admin.userId}`,
    );
  }
  return true;
}
