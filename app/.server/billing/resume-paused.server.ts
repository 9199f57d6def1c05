/**
 * Resuming a pause made here, in one place: the customer's "Resume" (manage.server.ts) and the end
 * of a pause with an end date (pause-end.server.ts) both come here.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../db";
import { subscriptions, type SubscriptionRow } from "../db/schema";
import { queueBillingMail } from "./notify.server";
import type { RazorpayClient } from "./razorpay/client";
import { applyProviderSubscription } from "./subscriptions.server";

/**
 * Asks Razorpay to resume a pause made here, and records it: the customer's "Resume", or the end
 * of a pause with an end date (pause-end.server.ts). One mail per pause ended.
 */
export async function resumePaused(
  current: SubscriptionRow,
  database: Database,
  client: RazorpayClient,
): Promise<SubscriptionRow> {
  const readAt = new Date();
  const entity = await client.resumeSubscription(current.providerSubscriptionId);
  return database.transaction(async (tx) => {
    const applied = await applyProviderSubscription(tx, entity, readAt);
    if (!applied) throw new Error("resumed subscription is not ours");
    const [row = applied] = await tx
      .update(subscriptions)
      .set({ resumeAt: null })
      .where(eq(subscriptions.id, applied.id))
      .returning();
    await queueBillingMail(
      tx,
      "pause-ended",
      row.id,
      `resumed:${current.pausedAt?.getTime() ?? readAt.getTime()}`,
    );
    return row;
  });
}
