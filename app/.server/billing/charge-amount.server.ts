/**
 * What a subscription's next charge comes to, decided once for every page and mail that names it
 * (the account, the renewal notice, a failed charge, the trial's end, a team's seats): the plan's
 * price (a team's: its seat price × its seats), less the coupon it was bought with while that
 * coupon's discounted charges last.
 */
import { eq } from "drizzle-orm";
import { chargeWithCoupon } from "~/lib/coupons";
import { findPlan } from "~/lib/plans";
import { db as defaultDb, type Executor } from "../db";
import { coupons, type SubscriptionRow } from "../db/schema";
import { providerPlanAmount } from "./plans.server";

export async function nextChargePaise(
  subscription: Pick<SubscriptionRow, "planId" | "couponId" | "paidCount"> &
    Partial<Pick<SubscriptionRow, "teamId" | "seats" | "providerPlanId">>,
  executor: Executor = defaultDb(),
): Promise<number> {
  // A team's seats are charged at the Razorpay plan's amount (the seat's tier when bought), ×
  // the quantity: what Razorpay charges.
  const list =
    subscription.teamId && subscription.providerPlanId
      ? ((await providerPlanAmount(subscription.providerPlanId, executor)) ?? 0) *
        (subscription.seats ?? 1)
      : (findPlan(subscription.planId)?.pricePaise ?? 0);
  if (!subscription.couponId) return list;
  const [coupon] = await executor
    .select()
    .from(coupons)
    .where(eq(coupons.id, subscription.couponId));
  // Razorpay counts the charges its offer has covered as paid_count counts the charges made.
  return chargeWithCoupon(list, coupon ?? null, subscription.paidCount);
}
