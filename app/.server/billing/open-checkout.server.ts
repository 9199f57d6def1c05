/**
 * What /checkout's form starts (its action stays thin): the buyer's billing details saved, then
 * the subscription to authorise (a new checkout, or the next plan of a switch) and what Razorpay's
 * window says of it: the first charge, with a coupon's price, and its day when that is later.
 */
import type { SessionUser } from "../auth/session-shape";
import type { BillingDetails } from "~/lib/billing-details";
import { formatDate } from "~/lib/dates";
import { type Currency, currencyName, formatPrice } from "~/lib/money";
import { type PaidPlanId, planById, planLabel, planPriceLabel } from "~/lib/plans";
import { AppError } from "../http/errors";
import { saveBillingProfile } from "./billing-profile.server";
import { nextCharge } from "./charge-amount.server";
import { type CheckoutRow, proOrder, startCheckout } from "./checkout.server";
import { startPlanSwitch } from "./manage.server";
import { paymentsConfig } from "./provider.server";
import { sellingAbroad } from "./selling-abroad.server";

export interface CheckoutOrder {
  planId: PaidPlanId;
  switching: "0" | "1";
  /** During a trial: start when it ends or at once. */
  start: "after-trial" | "now";
  /** A coupon the page accepted; checked and reserved again by startCheckout. */
  coupon?: string;
  /** A switch to the same plan paid another way (issue 59, point 3). */
  change?: "method";
  /** Rupees with the Indian details, or a currency sold abroad with a buyer abroad's. */
  currency: Currency;
  details: BillingDetails;
  /** The visitor's signed analytics id, with consent only: the funnel counts this payment. */
  analyticsId: string | null;
}

export async function openCheckout(user: SessionUser, order: CheckoutOrder) {
  const { planId, switching, start, coupon, details, analyticsId, currency, change } = order;
  // Before anything is stored: a currency not sold now (no LUT for this year, or not configured)
  // is refused with the reason, whoever asks for it.
  if (currency !== "INR") {
    const abroad = sellingAbroad();
    if (!abroad.open || !abroad.currencies.includes(currency))
      throw new AppError(
        "conflict",
        `Prices in ${currencyName(currency)} are not offered at the moment. Buyers in India pay in rupees; if you are outside India, write to us and we will help.`,
        { field: "currency" },
      );
  }
  await saveBillingProfile(user.id, details);
  const subscription: CheckoutRow =
    switching === "1"
      ? (
          await startPlanSwitch(user, planId, {
            couponCode: coupon || null,
            methodChange: change === "method",
          })
        ).next
      : await startCheckout(
          proOrder(user, planId, {
            afterTrial: start === "after-trial",
            couponCode: coupon || null,
            currency,
          }),
          { analyticsClientId: analyticsId },
        );
  const plan = planById(planId);
  // What the first charge comes to (the coupon's price when the subscription has one): the
  // same answer as every "next charge" on the site.
  const first = await nextCharge(subscription);
  const firstCharge =
    subscription.startAt && subscription.startAt > new Date() ? subscription.startAt : null;
  return {
    // Said when the coupon of a reused checkout no longer applies (it is then at full price).
    notice: subscription.couponNotice ?? "",
    open: {
      subscriptionId: subscription.providerSubscriptionId,
      keyId: paymentsConfig().keyId,
      description: [
        subscription.currency === "INR"
          ? `${planLabel(plan)}: ${planPriceLabel(plan)}, GST included`
          : `${planLabel(plan)}: ${planPriceLabel(plan, subscription.currency)}, no Indian GST (export)`,
        subscription.couponId ? `first payment ${formatPrice(first)} with ${coupon}` : null,
        firstCharge && switching !== "1"
          ? `first charge on ${formatDate(firstCharge.toISOString())}`
          : null,
      ]
        .filter(Boolean)
        .join(", "),
      amount: first,
      planId,
    },
  };
}
