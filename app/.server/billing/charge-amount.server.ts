/**
 * What a subscription's next charge comes to, decided once for every page and mail that names it
 * (the account, the renewal notice, a failed charge, the trial's end): the plan's price, less the
 * coupon it was bought with while that coupon's discounted charges last.
 */
import { eq } from "drizzle-orm";
import { chargeWithCoupon } from "~/lib/coupons";
import { findPlan } from "~/lib/plans";
import { db as defaultDb, type Executor } from "../db";
import { coupons, type SubscriptionRow } from "../db/schema";

export async function nextChargePaise(
  subscription: Pick<SubscriptionRow, "planId" | "couponId" | "paidCount">,
  executor: Executor = defaultDb(),
): Promise<number> {
  const list = findPlan(subscription.planId)?.pricePaise ?? 0;
  if (!subscription.couponId) return list;
  const [coupon] = await executor
    .select()
    .from(coupons)
    .where(eq(coupons.id, subscription.couponId));
  // Razorpay counts the charges its offer has covered as paid_count counts the charges made.
  return chargeWithCoupon(list, coupon ?? null, subscription.paidCount);
}
