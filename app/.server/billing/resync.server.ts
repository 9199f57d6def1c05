/** Resync: read a subscription from Razorpay and apply it, with what follows from the new state. */
import { type Database, db as defaultDb, type Executor } from "../db";
import type { SubscriptionRow } from "../db/schema";
import { guardAgainstDuplicate } from "./duplicate.server";
import { afterSubscriptionSynced } from "./sync-reactions.server";
import { scheduleRenewalReminder } from "./notify.server";
import { razorpay } from "./provider.server";
import type { RazorpayClient } from "./razorpay/client";
import type { RazorpaySubscription } from "./razorpay/types";
import { applyProviderSubscription } from "./subscriptions.server";

/**
 * Applies a provider state and queues its consequences (reminder, finishing a switch, cancelling
 * a duplicate subscription).
 */
export async function applyAndFollowUp(
  executor: Executor,
  entity: RazorpaySubscription,
  readAt: Date,
): Promise<SubscriptionRow | null> {
  const row = await applyProviderSubscription(executor, entity, readAt);
  if (row) {
    await scheduleRenewalReminder(executor, row);
    await afterSubscriptionSynced(executor, row);
    await guardAgainstDuplicate(executor, row);
  }
  return row;
}

export async function resyncFromProvider(
  providerSubscriptionId: string,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<SubscriptionRow | null> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const readAt = new Date();
  const entity = await client.fetchSubscription(providerSubscriptionId);
  return database.transaction((tx) => applyAndFollowUp(tx, entity, readAt));
}
