/**
 * What /checkout shows, read once for its loader (the route stays thin): the plan asked for
 * (`?plan=`, Pro monthly otherwise), whether it is a switch (`?switch=1`), when a trial's buyer
 * would start paying, a coupon's price for this buyer (`?coupon=`), and Razorpay's settings. Or
 * "already-subscribed" when the buyer has a subscription and is not switching: the page sends
 * them to it.
 */
import { STATUS_RULES } from "~/lib/subscription-state";
import type { SessionUser } from "../auth/session-shape";
import { couponView } from "../coupons/pricing-view.server";
import { paidStartAfterTrial } from "../trials/trials.server";
import { isPaidPlanId, planById, planLabel, planPriceLabel } from "~/lib/plans";
import { paymentsConfig } from "./provider.server";
import { liveSubscriptionsOf } from "./subscriptions.server";

export async function checkoutPage(user: SessionUser, requestUrl: string) {
  const url = new URL(requestUrl);
  const requested = url.searchParams.get("plan");
  const planId = isPaidPlanId(requested) ? requested : "pro-monthly";
  const switching = url.searchParams.get("switch") === "1";
  const live = await liveSubscriptionsOf(user.id);
  if (!switching && live.some((row) => STATUS_RULES[row.status].manageable))
    return "already-subscribed" as const;
  const plan = planById(planId);
  const payments = paymentsConfig();
  // During a free trial the plan can start when the trial ends (issue 36, point 4).
  const trialEnd = switching ? null : await paidStartAfterTrial(user.id);
  // A coupon (issue 36, point 7): every rule, this buyer's included; never on a plan switch.
  const code = switching ? "" : (url.searchParams.get("coupon")?.slice(0, 64).trim() ?? "");
  const couponFor = code ? await couponView(code, user) : null;
  const couponPlan = couponFor ? couponFor.plans[planId] : null;
  return {
    coupon:
      couponFor && couponPlan
        ? { code: couponFor.code, method: couponFor.method, view: couponPlan }
        : null,
    trialEndsAt: trialEnd?.toISOString() ?? null,
    plan: {
      id: plan.id,
      label: planLabel(plan),
      price: planPriceLabel(plan),
      pricePaise: plan.pricePaise,
      cycle: plan.billingCycle,
    },
    switching,
    checkout: {
      keyId: payments.keyId,
      scriptUrl: payments.checkoutScriptUrl,
      testMode: payments.testMode,
    },
    prefill: { name: user.name, email: user.email },
  };
}

export type CheckoutPage = Exclude<Awaited<ReturnType<typeof checkoutPage>>, "already-subscribed">;
