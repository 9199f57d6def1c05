/** What the account pages show about a buyer's subscription, in words and plain values. */
import { mandateWords, SWITCH_WORDS, type SwitchKind, switchKindOf } from "~/lib/plan-switch";
import type { Buyer } from "./buyer";
import { nextCharge } from "./charge-amount.server";
import { subscriptionCouponText } from "../coupons/subscription-coupon.server";
import { formatDate } from "~/lib/dates";
import type { Money } from "~/lib/money";
import { findPlan, planLabel } from "~/lib/plans";
import { type Database, db as defaultDb } from "../db";
import type { SubscriptionRow } from "../db/schema";
import {
  STATE_RULES,
  STATUS,
  STATUS_RULES,
  type SubscriptionState,
} from "~/lib/subscription-state";
import { stateOfRow } from "./subscription-state.server";
import { paymentMethodOf, paymentsOfSubscription } from "./payments.server";
import {
  primarySubscription,
  scheduledSwitch,
  subscriptionsOfBuyer,
  SWITCHED_PLAN,
} from "./subscriptions.server";

export type Banner = "pending" | "halted" | null;

export interface SubscriptionSummary {
  providerSubscriptionId: string;
  planId: string;
  plan: string;
  status: SubscriptionRow["status"];
  /** The state a person sees (app/lib/subscription-state.ts): its words and commands. */
  state: SubscriptionState;
  statusText: string;
  /** ISO dates; null when not applicable. */
  currentEnd: string | null;
  nextChargeAt: string | null;
  /** In the subscription's currency (rupees, or a buyer abroad's). */
  nextCharge: Money | null;
  /** The coupon it was bought with and what is left of it, in words; null without one. */
  coupon: string | null;
  paymentMethod: string | null;
  cancelAtCycleEnd: boolean;
  /** Razorpay's hosted page: authorise again or change the payment method. */
  manageUrl: string | null;
  /** Checkout confirmed in the browser, Razorpay's confirmation not in yet. */
  activating: boolean;
  /** While paused: since when (ISO), and whether the customer did it in their UPI app. */
  pausedAt: string | null;
  /** A pause with an end: the day it resumes by itself (issue 59). */
  resumeAt: string | null;
  pausedInUpiApp: boolean;
}

export interface BillingOverview {
  subscription: SubscriptionSummary | null;
  switchTo: {
    plan: string;
    planId: string;
    startsAt: string | null;
    /** Its first charge: the plan's price, or a coupon's. */
    price: Money;
    kind: SwitchKind;
    /** How it pays once authorised, in words ("UPI AutoPay"); null until known. */
    method: string | null;
  } | null;
  banner: Banner;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * A subscription's state in words. `switchTo` is the plan a scheduled switch starts, when the
 * caller knows it: a subscription that ends because a switch replaces it is not "Cancelled".
 */
export function statusText(
  row: Pick<SubscriptionRow, "status" | "cancelAtCycleEnd" | "cancelReason" | "endReason"> & {
    /** Set on a plan switch's own subscription: it reads as a switch, never as churn. */
    replacesSubscriptionId?: string | null;
  },
  switchTo?: { plan: string; startsAt: string | null; kind?: SwitchKind } | null,
): string {
  if (row.replacesSubscriptionId) {
    const switchText = switchStatusText(row);
    if (switchText) return switchText;
  }
  const state = stateOfRow(row, { switchFollows: !!switchTo && row.cancelAtCycleEnd });
  switch (state) {
    case "switching":
      return switchTo
        ? SWITCH_WORDS[switchTo.kind ?? "plan"].status(
            switchTo.plan,
            switchTo.startsAt ? formatDate(switchTo.startsAt) : "the end of the paid period",
          )
        : STATE_RULES.switching.customer;
    case "ending":
      return row.cancelReason === SWITCHED_PLAN
        ? STATE_RULES.switching.customer
        : STATE_RULES.ending.customer;
    // The words of a checkout are the same before and after the browser's confirmation here; the
    // card says "activating" from the summary's own flag.
    case "activating":
      return STATE_RULES["checkout-open"].customer;
    case "ended":
    case "ended-without-pro":
      return row.status === STATUS.completed ? "Completed" : cancelledText(row.endReason);
    case "checkout-open":
    case "authorised":
    case "switch-scheduled":
    case "active":
    case "retrying":
    case "halted":
    case "paused":
    case "paused-in-upi-app":
    case "expired":
      return STATE_RULES[state].customer;
  }
}

/**
 * A switch's own subscription (issue 33, point 8): scheduled until the old period ends, then the
 * plan the customer switched to; withdrawn before it started, it was never a sale nor a loss.
 * Null where a switch reads like any subscription (failed payments, an operator's cancellation).
 */
function switchStatusText(
  row: Pick<SubscriptionRow, "status" | "endReason" | "cancelAtCycleEnd">,
): string | null {
  const state = stateOfRow(row);
  if (state === "authorised") return STATE_RULES["switch-scheduled"].customer;
  if (state === "ended-without-pro" || state === "ended")
    return row.endReason === "abandoned"
      ? "Switch withdrawn before it started: nothing was charged"
      : null;
  if (state === "active") return "Active: switched from another plan";
  return null;
}

/** Why a cancelled subscription ended, in words: four of the reasons mean it gave no Pro. */
function cancelledText(reason: SubscriptionRow["endReason"]): string {
  switch (reason) {
    case "operator-ended":
      return "Cancelled by us: Pro ended at once";
    case "operator":
      return "Cancelled by us at the end of the paid period";
    case "refunded":
      return "Ended: refunded in full";
    case "dispute-lost":
      return "Ended: the customer's bank took the payment back (a chargeback we lost)";
    case "duplicate":
      return "Cancelled: a second subscription, refunded in full";
    case "halted":
      return "Cancelled after failed payments";
    case "switched":
      return "Ended: replaced by the new plan";
    case "account-closed":
      return "Cancelled with the account";
    case "abandoned":
      return "Cancelled before it was paid";
    case "customer":
      return "Cancelled";
    case null:
      // Every cancellation this site makes records why; Razorpay's webhook says nothing of who
      // cancelled, so one without a reason was made elsewhere: the customer revoking the mandate
      // in their UPI app or bank portal, or someone at Razorpay's dashboard. (No default: a new
      // end reason does not compile until it has its own words.)
      return "Cancelled outside this site (in a UPI app, a bank portal or at Razorpay)";
  }
}

function bannerOf(status: SubscriptionRow["status"] | undefined): Banner {
  return status ? STATUS_RULES[status].dunning : null;
}

/** The overview of someone with no subscription of their own (or none to show). */
export const NO_SUBSCRIPTION: BillingOverview = Object.freeze({
  subscription: null,
  switchTo: null,
  banner: null,
});

/** Only the dunning banner, for every account page, from the state the page read anyway. */
export function accountBanner(state: {
  subscriptions: readonly Pick<SubscriptionRow, "status" | "replacesSubscriptionId">[];
}): Banner {
  return bannerOf(primarySubscription(state.subscriptions)?.status);
}

/**
 * What a buyer's subscription is, renews and charges, in the words every page uses: a person's
 * own, or a team's seats (the team's page, for its owner and billing managers).
 */
export async function billingOverview(
  buyer: Buyer,
  database: Database = defaultDb(),
): Promise<BillingOverview> {
  const rows = await subscriptionsOfBuyer(buyer, database);
  const current =
    primarySubscription(rows) ??
    rows.find((row) => row.checkoutVerifiedAt && stateOfRow(row) === "activating") ??
    null;
  if (!current) return NO_SUBSCRIPTION;
  const plan = findPlan(current.planId);
  const paid = (await paymentsOfSubscription(current.id, database)).find(
    (payment) => payment.status === "captured" || payment.status === "refunded",
  );
  const next = scheduledSwitch(rows, current);
  const nextPlan = next ? findPlan(next.planId) : undefined;
  const state = stateOfRow(current, { switchFollows: next !== null });
  // A charge is coming (on a date, or on Razorpay's retry schedule): not when the plan ends.
  const charging = STATUS_RULES[current.status].renews && !current.cancelAtCycleEnd;
  const switchTo =
    next && nextPlan
      ? {
          plan: planLabel(nextPlan),
          planId: nextPlan.id,
          startsAt: iso(next.startAt ?? next.chargeAt),
          price: await nextCharge(next, database),
          kind: switchKindOf(current, next),
          method: mandateWords(next.paymentMethod),
        }
      : null;
  return {
    subscription: {
      providerSubscriptionId: current.providerSubscriptionId,
      planId: current.planId,
      plan: planLabel(current.planId),
      status: current.status,
      state,
      statusText: statusText(current, switchTo),
      currentEnd: iso(current.currentEnd),
      nextChargeAt: charging ? iso(current.chargeAt ?? current.currentEnd) : null,
      nextCharge: charging && plan ? await nextCharge(current, database) : null,
      coupon: await subscriptionCouponText(current, database),
      paymentMethod: paid ? paymentMethodOf(paid).customerLabel : null,
      cancelAtCycleEnd: current.cancelAtCycleEnd,
      manageUrl: current.shortUrl,
      activating: state === "activating",
      pausedAt: state === "paused" || state === "paused-in-upi-app" ? iso(current.pausedAt) : null,
      resumeAt: state === "paused" ? iso(current.resumeAt) : null,
      pausedInUpiApp: state === "paused-in-upi-app",
    },
    switchTo,
    banner: STATUS_RULES[current.status].dunning,
  };
}
