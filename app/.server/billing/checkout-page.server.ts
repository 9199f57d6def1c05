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
import { currencyName, type Money } from "~/lib/money";
import { isPaidPlanId, planById, planLabel, planPriceIn, planPriceLabel } from "~/lib/plans";
import { offeredCurrencies, offeredCurrency } from "./pricing-currency.server";
import { paymentsConfig } from "./provider.server";
import { liveSubscriptionsOf } from "./subscriptions.server";

export async function checkoutPage(user: SessionUser, requestUrl: string) {
  const url = new URL(requestUrl);
  const requested = url.searchParams.get("plan");
  const planId = isPaidPlanId(requested) ? requested : "pro-monthly";
  const switching = url.searchParams.get("switch") === "1";
  const live = await liveSubscriptionsOf(user.id);
  const manageable = live.find((row) => STATUS_RULES[row.status].manageable);
  if (!switching && manageable) return "already-subscribed" as const;
  // The currency (issue 56): a switch keeps its subscription's; else `?currency=` when it is sold
  // now. One asked for and not sold is said, and the page sells in rupees.
  const asked = url.searchParams.get("currency");
  const sold = offeredCurrency(asked);
  const currency = switching && manageable ? manageable.currency : (sold ?? "INR");
  const currencyRefused =
    !switching && asked && asked !== "INR" && !sold
      ? `Prices in ${/^[A-Z]{3}$/.test(asked) ? asked : "that currency"} are not offered at the moment: the prices below are in rupees, for buyers in India.`
      : null;
  const plan = planById(planId);
  const payments = paymentsConfig();
  // During a free trial the plan can start when the trial ends (issue 36, point 4).
  const trialEnd = switching ? null : await paidStartAfterTrial(user.id);
  // A coupon (issue 36, point 7): every rule, this buyer's included; never on a switch to the
  // other plan. On a "switch" to the same plan it is the cancellation flow's discount (issue 59):
  // the plan again at the coupon's price from the end of the paid period. Coupons are rupee
  // discounts (decision 0061).
  // A new payment method (issue 59, point 3): the same plan, paid another way, no coupon.
  const changingMethod =
    switching && url.searchParams.get("change") === "method" && manageable?.planId === planId;
  const staying = switching && manageable?.planId === planId && !changingMethod;
  const code =
    (switching && !staying) || currency !== "INR"
      ? ""
      : (url.searchParams.get("coupon")?.slice(0, 64).trim() ?? "");
  const couponFor = code ? await couponView(code, user) : null;
  const couponPlan = couponFor ? couponFor.plans[planId] : null;
  return {
    coupon:
      couponFor && couponPlan
        ? { code: couponFor.code, method: couponFor.method, view: couponPlan }
        : null,
    trialEndsAt: trialEnd?.toISOString() ?? null,
    plan: {
      id: planId,
      label: planLabel(plan),
      price: planPriceLabel(plan, currency),
      /** The rupee list price (the analytics catalogue counts in rupees). */
      pricePaise: plan.pricePaise,
      list: { amount: planPriceIn(plan, currency), currency } satisfies Money,
      cycle: plan.billingCycle,
    },
    currency,
    currencyName: currencyName(currency),
    currencyRefused,
    /** The other side of the border, for a link: a buyer may be on the wrong one. */
    otherCurrencies: switching ? [] : offeredCurrencies().filter((other) => other !== currency),
    switching,
    /** The same plan again at a coupon's price (the cancellation flow's discount). */
    staying,
    changingMethod,
    /** A coupon on the current subscription, which a new payment method does not carry over. */
    couponEnds: changingMethod && !!manageable?.couponId,
    checkout: {
      keyId: payments.keyId,
      scriptUrl: payments.checkoutScriptUrl,
      testMode: payments.testMode,
    },
    prefill: { name: user.name, email: user.email },
  };
}

export type CheckoutPage = Exclude<Awaited<ReturnType<typeof checkoutPage>>, "already-subscribed">;
