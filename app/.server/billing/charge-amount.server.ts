/**
 * What a subscription's next charge comes to, decided once for every page and mail that names it
 * (the account, the renewal notice, a failed charge, the trial's end, a team's seats): the plan's
 * price in the subscription's currency (a team's: its seat price × its seats), less the coupon it
 * was bought with while that coupon's discounted charges last.
 */
import { eq } from "drizzle-orm";
import { chargeWithCoupon } from "~/lib/coupons";
import type { Money } from "~/lib/money";
import { findPlan, planPriceIn } from "~/lib/plans";
import { db as defaultDb, type Executor } from "../db";
import { coupons, type SubscriptionRow } from "../db/schema";
import { providerPlanAmount } from "./plans.server";

export async function nextCharge(
  subscription: Pick<SubscriptionRow, "planId" | "couponId" | "paidCount"> &
    Partial<Pick<SubscriptionRow, "teamId" | "seats" | "providerPlanId" | "currency">>,
  executor: Executor = defaultDb(),
): Promise<Money> {
  const currency = subscription.currency ?? "INR";
  const plan = findPlan(subscription.planId);
  // A team's seats are charged at the Razorpay plan's amount (the seat's tier when bought), ×
  // the quantity: what Razorpay charges.
  const list =
    subscription.teamId && subscription.providerPlanId
      ? ((await providerPlanAmount(subscription.providerPlanId, executor)) ?? 0) *
        (subscription.seats ?? 1)
      : plan
        ? planPriceIn(plan, currency)
        : 0;
  // Coupons are rupee discounts (decision 0061): a subscription abroad never has one.
  if (!subscription.couponId || currency !== "INR") return { amount: list, currency };
  const [coupon] = await executor
    .select()
    .from(coupons)
    .where(eq(coupons.id, subscription.couponId));
  // Razorpay counts the charges its offer has covered as paid_count counts the charges made.
  return {
    amount: chargeWithCoupon(list, coupon ?? null, subscription.paidCount),
    currency,
  };
}
