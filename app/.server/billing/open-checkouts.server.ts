/**
 * A buyer's open checkouts (a person's or a team's), settled before a new one is made: the one
 * for the same order is paid as it is; every other is cancelled at Razorpay, since it can never
 * be paid; one paid meanwhile (its webhook not in yet) stops the new checkout. One path for both
 * kinds of buyer (issue 54): what differs is only what makes "the same order".
 */
import { checkoutOpen, STATUS_RULES } from "~/lib/subscription-state";
import type { Database } from "../db";
import type { SubscriptionRow } from "../db/schema";
import type { AppError } from "../http/errors";
import { cancelAtRazorpay } from "./cancel-at-razorpay.server";
import { RazorpayError, type RazorpayClient } from "./razorpay/client";
import type { RazorpaySubscription } from "./razorpay/types";
import { applyProviderSubscription, markEnding } from "./subscriptions.server";

export async function settleOpenCheckouts(
  open: readonly SubscriptionRow[],
  rules: {
    /**
     * Whether this open checkout (still unpaid at Razorpay) is the order asked for now. It may
     * check a held coupon again; false lets it go like an abandoned one.
     */
    sameOrder(open: SubscriptionRow, fresh: RazorpaySubscription): Promise<boolean>;
    /** The refusal when one was paid meanwhile; null when that does not stop this one. */
    paidMeanwhile: AppError | null;
  },
  database: Database,
  client: RazorpayClient,
): Promise<SubscriptionRow | null> {
  for (const row of open) {
    const readAt = new Date();
    const fresh = await client.fetchSubscription(row.providerSubscriptionId);
    if (!checkoutOpen(fresh.status)) {
      await applyProviderSubscription(database, fresh, readAt);
      if (rules.paidMeanwhile && STATUS_RULES[fresh.status].renews) throw rules.paidMeanwhile;
      continue;
    }
    if (await rules.sameOrder(row, fresh))
      return (await applyProviderSubscription(database, fresh, readAt)) ?? row;
    // Another order: the old checkout can never be paid.
    try {
      await applyProviderSubscription(
        database,
        await cancelAtRazorpay(database, client, row, { reason: "abandoned", atCycleEnd: false }),
        new Date(),
      );
      await markEnding(database, row.id, "abandoned");
    } catch (error) {
      if (!(error instanceof RazorpayError && error.refused)) throw error;
    }
  }
  return null;
}
