/**
 * The site analytics a purchase ties to a person: a subscription bought with analytics on keeps
 * that browser's first-party id (privacy policy). The operator's customer timeline shows its key
 * events, the person's data export holds all of them, and erasing the account clears the id.
 */
import { and, asc, inArray, type SQL } from "drizzle-orm";
import type { Database } from "../db";
import { analyticsEvents, type SubscriptionRow } from "../db/schema";

/** The analytics ids the subscriptions kept (consenting buyers only). */
export function purchaseBrowserIds(rows: readonly Pick<SubscriptionRow, "analyticsClientId">[]) {
  return [
    ...new Set(rows.map((row) => row.analyticsClientId).filter((id): id is string => id !== null)),
  ];
}

/** Those browsers' events, oldest first; only the names given, when given. */
export async function eventsOfPurchaseBrowsers(
  database: Database,
  browserIds: readonly string[],
  names?: readonly string[],
): Promise<{ name: string; params: unknown; occurredAt: Date }[]> {
  if (browserIds.length === 0) return [];
  const filters: SQL[] = [inArray(analyticsEvents.clientId, [...browserIds])];
  if (names) filters.push(inArray(analyticsEvents.name, [...names]));
  return database
    .select({
      name: analyticsEvents.name,
      params: analyticsEvents.params,
      occurredAt: analyticsEvents.occurredAt,
    })
    .from(analyticsEvents)
    .where(and(...filters))
    .orderBy(asc(analyticsEvents.occurredAt));
}
