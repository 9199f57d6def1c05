/**
 * The params of every analytics event that names a plan, built from the plan's id: the name comes
 * from `analyticsPlanName` (app/lib/plans.ts) and nowhere else, so `plan_select`, the checkout, the
 * purchase and the subscription events all call a plan the same ("Pro (monthly)").
 * Pages call `track(event, planEvents.…(…))`; a test fails if one sets a plan name itself.
 */
import { type BillingCycle, type Plan, analyticsPlanName, findPlan } from "~/lib/plans";
import type { EventParams } from "./catalogue";

type PlanRef = Plan | string;

const idOf = (plan: PlanRef) => (typeof plan === "string" ? plan : plan.id);
const rupees = (paise: number) => paise / 100;
/** The plan's price in rupees; 0 for an id the config no longer knows. */
const priceOf = (plan: PlanRef) =>
  rupees((typeof plan === "string" ? findPlan(plan) : plan)?.pricePaise ?? 0);

export const planEvents = {
  /** A plan chosen on the pricing page while `cycle` is shown. */
  planSelect(plan: PlanRef, cycle: BillingCycle): EventParams<"plan_select"> {
    const found = typeof plan === "string" ? findPlan(plan) : plan;
    return {
      plan_name: analyticsPlanName(plan),
      plan_price: priceOf(plan),
      billing_cycle: found?.billingCycle ?? cycle,
    };
  },

  addToCart(plan: PlanRef): EventParams<"add_to_cart"> {
    return {
      item_id: idOf(plan),
      item_name: analyticsPlanName(plan),
      item_category: "subscription",
      price: priceOf(plan),
    };
  },

  beginCheckout(plan: PlanRef, amountPaise: number): EventParams<"begin_checkout"> {
    return { currency: "INR", value: rupees(amountPaise), plan_name: analyticsPlanName(plan) };
  },

  /** The first payment of a subscription: `amountPaise` is what was paid. */
  purchase(plan: PlanRef, paymentId: string, amountPaise: number): EventParams<"purchase"> {
    const value = rupees(amountPaise);
    return {
      currency: "INR",
      value,
      transaction_id: paymentId,
      items: [
        { item_id: idOf(plan), item_name: analyticsPlanName(plan), price: value, quantity: 1 },
      ],
    };
  },

  subscriptionStart(plan: PlanRef): EventParams<"subscription_start"> {
    return { plan_name: analyticsPlanName(plan), plan_price: priceOf(plan) };
  },

  /** A free trial of `plan` started, for `days` (issue 36). */
  trialStart(plan: PlanRef, days: number): EventParams<"trial_start"> {
    return { plan_name: analyticsPlanName(plan), trial_days: days };
  },

  /** A coupon accepted at checkout for `plan`: `discountPaise` off the first payment. */
  couponApply(plan: PlanRef, code: string, discountPaise: number): EventParams<"coupon_apply"> {
    return { coupon: code, plan_name: analyticsPlanName(plan), discount: rupees(discountPaise) };
  },

  /** A free trial of `plan` ended after `days`; `converted`: a plan was bought meanwhile. */
  trialEnd(plan: PlanRef, days: number, converted: boolean): EventParams<"trial_end"> {
    return { plan_name: analyticsPlanName(plan), trial_days: days, converted };
  },

  subscriptionCancel(plan: PlanRef): EventParams<"subscription_cancel"> {
    return { plan_name: analyticsPlanName(plan) };
  },

  subscriptionUpgrade(from: PlanRef, to: PlanRef): EventParams<"subscription_upgrade"> {
    return {
      from_plan: analyticsPlanName(from),
      to_plan: analyticsPlanName(to),
      new_price: priceOf(to),
    };
  },
};
