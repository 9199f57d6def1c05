/** The coupon a subscription was bought with, in words for its owner's account page. */
import { STATUS_RULES } from "~/lib/subscription-state";
import { eq } from "drizzle-orm";
import { couponSummary, discountedCharges } from "~/lib/coupons";
import { findPlan } from "~/lib/plans";
import { db as defaultDb, type Executor } from "../db";
import { coupons, type SubscriptionRow } from "../db/schema";
import { termsOf } from "./quote.server";

/** "LAUNCH20: 20% off for the first 3 months; 2 discounted payments to come." or null. */
export async function subscriptionCouponText(
  subscription: Pick<
    SubscriptionRow,
    "planId" | "couponId" | "paidCount" | "status" | "cancelAtCycleEnd"
  >,
  executor: Executor = defaultDb(),
): Promise<string | null> {
  if (!subscription.couponId) return null;
  const [coupon] = await executor
    .select()
    .from(coupons)
    .where(eq(coupons.id, subscription.couponId));
  if (!coupon) return null;
  const terms = termsOf(coupon);
  const summary = `${coupon.code}: ${couponSummary(terms, findPlan(subscription.planId)?.billingCycle ?? null)}`;
  const charges = discountedCharges(terms);
  if (charges === null) return `${summary}.`;
  // Ended, or set to end: no payment is to come, discounted or not (issue 54: after "Cancel
  // now" the customer's page still promised discounted payments).
  if (STATUS_RULES[subscription.status].final || subscription.cancelAtCycleEnd)
    return `${summary}; no more payments are to come.`;
  const left = Math.max(0, charges - subscription.paidCount);
  if (left === 0) return `${summary}; its discounted payments are done, so the full price applies.`;
  return `${summary}; ${left === 1 ? "1 discounted payment" : `${left} discounted payments`} to come.`;
}
