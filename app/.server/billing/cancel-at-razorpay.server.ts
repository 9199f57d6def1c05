/**
 * The one way this site cancels a subscription at Razorpay. The reason is written first (as the
 * row's pending end reason), then Razorpay is asked: whichever tells us it is cancelled first,
 * the call's answer or the `subscription.cancelled` webhook (which may overtake it), the row
 * reads as ended for that reason (applyProviderSubscription). Before, each caller recorded the
 * reason after the call, so an overtaking webhook showed "cancelled outside this site" for a
 * moment, and a process killed between the two showed it for good.
 *
 * A refusal (Razorpay answered 4xx: nothing was cancelled) clears the pending reason. Any other
 * failure keeps it: the request may have been carried out, and the reason only takes effect if
 * Razorpay says the subscription is cancelled.
 */
import { and, eq } from "drizzle-orm";
import { type SubscriptionEndReason, subscriptions } from "../db/schema";
import type { Executor } from "../db";
import { type RazorpayClient, RazorpayError } from "./razorpay/client";
import type { RazorpaySubscription } from "./razorpay/types";

export async function cancelAtRazorpay(
  executor: Executor,
  client: Pick<RazorpayClient, "cancelSubscription">,
  subscription: { id: string; providerSubscriptionId: string },
  options: { reason: SubscriptionEndReason; atCycleEnd: boolean },
): Promise<RazorpaySubscription> {
  await executor
    .update(subscriptions)
    .set({ pendingEndReason: options.reason })
    .where(eq(subscriptions.id, subscription.id));
  try {
    return await client.cancelSubscription(subscription.providerSubscriptionId, options.atCycleEnd);
  } catch (error) {
    if (error instanceof RazorpayError && error.refused)
      await executor
        .update(subscriptions)
        .set({ pendingEndReason: null })
        .where(
          and(
            eq(subscriptions.id, subscription.id),
            eq(subscriptions.pendingEndReason, options.reason),
          ),
        );
    throw error;
  }
}
