/**
 * What /checkout's form starts (its action stays thin): the buyer's billing details saved, then
 * the subscription to authorise (a new checkout, or the next plan of a switch) and what Razorpay's
 * window says of it: the first charge, with a coupon's price, and its day when that is later.
 */
import type { SessionUser } from "../auth/session-shape";
import type { BillingDetails } from "~/lib/billing-details";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import { type PaidPlanId, planById, planLabel, planPriceLabel } from "~/lib/plans";
import { saveBillingProfile } from "./billing-profile.server";
import { nextChargePaise } from "./charge-amount.server";
import { type CheckoutRow, proOrder, startCheckout } from "./checkout.server";
import { startPlanSwitch } from "./manage.server";
import { paymentsConfig } from "./provider.server";

export interface CheckoutOrder {
  planId: PaidPlanId;
  switching: "0" | "1";
  /** During a trial: start when it ends or at once. */
  start: "after-trial" | "now";
  /** A coupon the page accepted; checked and reserved again by startCheckout. */
  coupon?: string;
  details: BillingDetails;
  /** The visitor's signed analytics id, with consent only: the funnel counts this payment. */
  analyticsId: string | null;
}

export async function openCheckout(user: SessionUser, order: CheckoutOrder) {
  const { planId, switching, start, coupon, details, analyticsId } = order;
  await saveBillingProfile(user.id, details);
  const subscription: CheckoutRow =
    switching === "1"
      ? (await startPlanSwitch(user, planId)).next
      : await startCheckout(
          proOrder(user, planId, {
            afterTrial: start === "after-trial",
            couponCode: coupon || null,
          }),
          { analyticsClientId: analyticsId },
        );
  const plan = planById(planId);
  // What the first charge comes to (the coupon's price when the subscription has one): the
  // same answer as every "next charge" on the site.
  const firstPaise = await nextChargePaise(subscription);
  const firstCharge =
    subscription.startAt && subscription.startAt > new Date() ? subscription.startAt : null;
  return {
    // Said when the coupon of a reused checkout no longer applies (it is then at full price).
    notice: subscription.couponNotice ?? "",
    open: {
      subscriptionId: subscription.providerSubscriptionId,
      keyId: paymentsConfig().keyId,
      description: [
        `${planLabel(plan)}: ${planPriceLabel(plan)}, GST included`,
        subscription.couponId ? `first payment ${formatInr(firstPaise)} with ${coupon}` : null,
        firstCharge && switching !== "1"
          ? `first charge on ${formatDate(firstCharge.toISOString())}`
          : null,
      ]
        .filter(Boolean)
        .join(", "),
      amountPaise: firstPaise,
      planId,
    },
  };
}
