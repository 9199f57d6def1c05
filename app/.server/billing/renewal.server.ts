/**
 * The renewal centre (issue 34, point 1): what a customer's subscription does next, in words a
 * person reads once — the plan and its state in one sentence, the next charge with its date,
 * amount and GST split, the payment method, and what happens if the charge fails. Built from
 * the same overview the subscription page reads, so the sentence and the details never disagree.
 */
import type { SwitchKind } from "~/lib/plan-switch";
import { personBuyer } from "./buyer";
import { formatDate } from "~/lib/dates";
import type { GstSplit } from "~/lib/gst-split";
import { formatPrice, type Money } from "~/lib/money";
import { STATE_RULES, STATUS, STATUS_RULES } from "~/lib/subscription-state";
import { type Database, db as defaultDb } from "../db";
import { taxOfCharge } from "../invoices/preview.server";
import { type BillingOverview, billingOverview, NO_SUBSCRIPTION } from "./overview.server";

export interface NextCharge {
  /** ISO instant; shown as an India date. */
  at: string;
  /** The plan the charge pays for ("Pro (yearly)" after a scheduled switch). */
  plan: string;
  /** In the subscription's currency. */
  amount: Money;
  /**
   * The GST inside a rupee amount, as the invoice will split it; null for a charge abroad (an
   * export: no Indian GST, nothing to split).
   */
  tax: GstSplit | null;
}

export interface Renewal {
  /** The plan, its state and what happens next, in one sentence. */
  sentence: string;
  next: NextCharge | null;
  /** "Visa •••• 4366", "UPI AutoPay su•••@razorpay"; null before the first payment. */
  method: string | null;
  /** What a failed charge leads to; null when nothing is going to be charged. */
  ifChargeFails: string | null;
  /** The page that helps now (a failed or stopped payment), or null. */
  fix: { label: string; to: string } | null;
}

export const IF_CHARGE_FAILS =
  "If a charge fails, Razorpay retries it over the next few days and we email you; Pro stays on meanwhile. If every retry fails, the subscription stops and your account moves to Free until you pay again.";

const day = (iso: string | null) => (iso ? formatDate(iso) : "the end of this period");

/**
 * The sentence and its details for an overview. `entitledUntil` is when the account's Pro ends
 * (null: it does not end, or there is none); `tax` splits the next charge's amount.
 */
export function describeRenewal(
  overview: BillingOverview,
  options: {
    now: Date;
    proUntil: string | null;
    onPro: boolean;
    tax: GstSplit | null;
  },
): Renewal | null {
  const sub = overview.subscription;
  if (!sub) return null;
  const { switchTo } = overview;
  const rules = STATE_RULES[sub.state];
  // Runs and charges on (a failed charge in Razorpay's retries included).
  const running = STATUS_RULES[sub.status].renews;
  // A failed charge is being retried on Razorpay's schedule: there is no next date to promise.
  const charging = rules.nextCharge;
  const next: NextCharge | null =
    charging && switchTo && switchTo.startsAt
      ? {
          at: switchTo.startsAt,
          plan: switchTo.plan,
          amount: switchTo.price,
          tax: options.tax,
        }
      : charging && sub.nextChargeAt && sub.nextCharge !== null
        ? {
            at: sub.nextChargeAt,
            plan: sub.plan,
            amount: sub.nextCharge,
            tax: options.tax,
          }
        : null;
  const base = {
    next,
    method: sub.paymentMethod,
    ifChargeFails: next ? IF_CHARGE_FAILS : null,
    fix: null,
  };
  if (sub.activating)
    return {
      ...base,
      sentence: `Payment received: ${sub.plan} is being activated. This page shows it once Razorpay confirms the payment, usually within a minute.`,
    };
  if (running && switchTo)
    return {
      ...base,
      sentence: switchSentence(sub.plan, switchTo, day(switchTo.startsAt)),
    };
  const keepsPro =
    options.onPro && options.proUntil && new Date(options.proUntil) > options.now
      ? options.proUntil
      : null;
  switch (sub.state) {
    case "active":
    case "switching":
      return {
        ...base,
        sentence: next
          ? `${sub.plan} renews on ${formatDate(next.at)} for ${formatPrice(next.amount)}.`
          : `${sub.plan} is active.`,
      };
    case "ending":
      return {
        ...base,
        sentence:
          sub.status === STATUS.pending
            ? `The last charge for ${sub.plan} failed, and it is cancelled: you keep Pro until ${day(sub.currentEnd)} at most, then your account moves to Free. Nothing more will be charged.`
            : `${sub.plan} is cancelled: you keep Pro until ${day(sub.currentEnd)}, then your account moves to Free. Nothing more will be charged.`,
      };
    case "authorised":
    case "switch-scheduled":
      return {
        ...base,
        sentence: next
          ? `${sub.plan} is authorised: the first charge, ${formatPrice(next.amount)}, is on ${formatDate(next.at)}.`
          : `${sub.plan} is authorised: the first charge is still to come.`,
      };
    case "retrying":
      return {
        ...base,
        // Razorpay's next try is its charge_at (from the next day, daily: issue 59, point 5).
        sentence: sub.nextChargeAt
          ? `The last charge for ${sub.plan} failed. Razorpay tries again on ${formatDate(sub.nextChargeAt)}, then daily while it fails, and Pro stays on meanwhile; if every retry fails, the subscription stops and your account moves to Free.`
          : `The last charge for ${sub.plan} failed. Razorpay is retrying it and Pro stays on meanwhile; if every retry fails, the subscription stops and your account moves to Free.`,
        fix: { label: "Fix payment", to: "/fix-subscription" },
      };
    case "halted":
      return {
        ...base,
        sentence: `${sub.plan} stopped after failed payments, so your account is on Free. Paying the missed charge restarts it; you do not need to buy again.`,
        fix: { label: "Fix payment", to: "/fix-subscription" },
      };
    case "paused":
    case "paused-in-upi-app": {
      const since = sub.pausedAt ? ` on ${formatDate(sub.pausedAt)}` : "";
      const pro = keepsPro
        ? `You keep Pro until ${formatDate(keepsPro)}, the end of the period already paid; then your account is on Free until it resumes.`
        : "Your account is on Free until it resumes.";
      return {
        ...base,
        sentence:
          sub.state === "paused-in-upi-app"
            ? `You paused ${sub.plan} in your UPI app${since}, so nothing is charged. ${pro} Only you can resume it, in that app's AutoPay mandates.`
            : sub.resumeAt
              ? `${sub.plan} ${sub.pausedAt ? "was" : "is"} paused${since}, so nothing is charged. ${keepsPro ? `You keep Pro until ${formatDate(keepsPro)}, the end of the period already paid.` : ""} It resumes by itself on ${formatDate(sub.resumeAt)}, and the next charge is taken then; we write a few days before.`.replace(
                  "  ",
                  " ",
                )
              : `${sub.plan} ${sub.pausedAt ? "was" : "is"} paused${since}, so nothing is charged. ${pro}`,
      };
    }
    // A checkout not paid (the activating one is answered above), or one that ended: cancelled,
    // completed, refunded. Pro may run to the end of the paid period.
    case "checkout-open":
    case "activating":
    case "ended":
    case "ended-without-pro":
    case "expired": {
      const keeps = keepsPro
        ? ` You keep Pro until ${formatDate(keepsPro)}; nothing more will be charged.`
        : " Your account is on Free; nothing more will be charged.";
      return { ...base, sentence: `${sub.plan}: ${sub.statusText}.${keeps}` };
    }
  }
}

/**
 * The overview and its renewal for a user, read now. `hasSubscriptions: false`: the caller's read
 * found none of the user's own (the account area's one statement), so there is nothing to read.
 */
export async function renewalOf(
  userId: string,
  entitlement: { plan: string; expires_at: string | null },
  options: { database?: Database; now?: Date; hasSubscriptions?: boolean } = {},
): Promise<{ overview: BillingOverview; renewal: Renewal | null }> {
  const database = options.database ?? defaultDb();
  const overview =
    options.hasSubscriptions === false
      ? NO_SUBSCRIPTION
      : await billingOverview(personBuyer(userId), database);
  const sub = overview.subscription;
  const amount = overview.switchTo?.price ?? sub?.nextCharge ?? null;
  // GST is split only out of a rupee charge; a charge abroad is an export, zero-rated.
  const tax =
    amount !== null && amount.currency === "INR"
      ? await taxOfCharge(database, userId, amount.amount)
      : null;
  return {
    overview,
    renewal: describeRenewal(overview, {
      now: options.now ?? new Date(),
      proUntil: entitlement.expires_at,
      onPro: entitlement.plan !== "free",
      tax,
    }),
  };
}

/** The renewal sentence of a subscription a scheduled switch replaces, by what it changes. */
function switchSentence(
  plan: string,
  switchTo: { plan: string; price: Money; kind: SwitchKind; method: string | null },
  on: string,
): string {
  switch (switchTo.kind) {
    case "plan":
      return `${plan} until ${on}; then ${switchTo.plan} starts, and ${formatPrice(switchTo.price)} is charged that day.`;
    case "price":
      return `${plan} renews on ${on} at the coupon's price, ${formatPrice(switchTo.price)}.`;
    case "method":
      return `${plan} renews on ${on} for ${formatPrice(switchTo.price)}, paid with ${switchTo.method ?? "the new payment method"}; the current one pays nothing more.`;
  }
}
