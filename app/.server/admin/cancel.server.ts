/**
 * The operator cancels a customer's subscription (issue 33): now, which ends Pro at once and
 * charges nothing more, or at the end of the paid period, as the customer's own cancellation
 * does. Razorpay is told first; its answer, the reason the subscription ends, the audit entry and
 * the customer's mail are stored in one transaction. Refunds stay a separate, confirmed action
 * (a full refund of the current period ends the subscription by itself, billing/refunded-period).
 */
import { STATUS_RULES } from "~/lib/subscription-state";
import { stateOfRow } from "../billing/subscription-state.server";
import { cancelAtRazorpay } from "../billing/cancel-at-razorpay.server";
import { eq } from "drizzle-orm";
import { formatDate } from "~/lib/dates";
import { type Currency, formatMoney } from "~/lib/money";
import { isPaidPlanId, planById, planPriceIn } from "~/lib/plans";
import { assertAdmin, type Session } from "../auth/session";
import { type Database, db as defaultDb } from "../db";
import { subscriptions, type SubscriptionRow } from "../db/schema";
import { dropScheduledSwitch } from "../billing/manage.server";
import { queueBillingMail } from "../billing/notify.server";
import { razorpay } from "../billing/provider.server";
import type { RazorpayClient } from "../billing/razorpay/client";
import {
  applyProviderSubscription,
  markEnding,
  MAY_CHARGE_STATUSES,
  subscriptionsOf,
} from "../billing/subscriptions.server";
import { AppError } from "../http/errors";
import { kickJobs } from "../jobs/kick";
import { audit } from "./audit.server";

export type CancelWhen = "now" | "period-end";

export async function adminCancelSubscription(
  session: Session,
  userId: string,
  input: { subscriptionId: string; when: CancelWhen; reason: string },
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const rows = await subscriptionsOf(userId, database);
  const row = rows.find((each) => each.providerSubscriptionId === input.subscriptionId);
  if (!row) throw new AppError("not_found", "That subscription does not belong to this customer.");
  if (!MAY_CHARGE_STATUSES.includes(row.status))
    throw new AppError(
      "conflict",
      "This subscription has ended already: there is nothing to cancel.",
    );
  if (stateOfRow(row) === "switch-scheduled")
    throw new AppError(
      "conflict",
      "This is a plan switch that has not started: cancel the subscription it replaces, and the switch goes with it.",
    );
  // Authorised and never charged (an unpaid start): nothing was paid, so it
  // can only end now.
  const atPeriodEnd = input.when === "period-end" && !STATUS_RULES[row.status].awaitsFirstCharge;
  if (atPeriodEnd && row.cancelAtCycleEnd)
    throw new AppError(
      "conflict",
      "This subscription is already set to end with its paid period. Use “Cancel now” to end it at once.",
    );

  const readAt = new Date();
  const entity = await cancelAtRazorpay(database, client, row, {
    reason: atPeriodEnd ? "operator" : "operator-ended",
    atCycleEnd: atPeriodEnd,
  });
  const endsNow = STATUS_RULES[entity.status].final;
  await database.transaction(async (tx) => {
    const applied = await applyProviderSubscription(tx, entity, readAt);
    if (!applied) throw new Error("cancelled subscription is not ours");
    await tx
      .update(subscriptions)
      .set({ cancelAtCycleEnd: !endsNow })
      .where(eq(subscriptions.id, row.id));
    await markEnding(tx, row.id, endsNow ? "operator-ended" : "operator");
    await audit(tx, session, {
      action: endsNow ? "subscription.cancel-now" : "subscription.cancel-at-period-end",
      targetUserId: userId,
      target: row.providerSubscriptionId,
      reason: input.reason,
      before: { status: row.status, cancelAtCycleEnd: row.cancelAtCycleEnd },
      after: { status: entity.status, cancelAtCycleEnd: !endsNow },
    });
    // Keyed by the moment: an undo and a second cancellation later is a new change, mailed again.
    await queueBillingMail(tx, "cancelled", row.id, `operator:${readAt.getTime()}`);
  });
  // A switch waiting to start after this one would charge again: it goes with it.
  await dropScheduledSwitch(rows, row, database, client);
  kickJobs();
  if (endsNow) {
    const unused = unusedPart(row, readAt);
    return `Cancelled now: Pro has ended and nothing more will be charged. The customer was mailed.${
      unused
        ? ` The refund policy promises the unused part of the period (${formatMoney(unused.paise, unused.currency)}, ${unused.days} of ${unused.ofDays} days) unless this was for a breach of the Terms: refund it under Payments.`
        : ""
    }`;
  }
  const end = fromSeconds(entity.current_end);
  return `Set to end with the paid period${end ? `, on ${formatDate(end)}` : ""}: Pro until then, nothing more will be charged. The customer was mailed.`;
}

/**
 * What is left of the paid period at `at`, in whole days and in paise of the plan's price: what
 * the refund policy (content/legal/refund.md) promises back when we end a subscription early for
 * anything but a breach of the Terms. Null when the period is unknown or over.
 */
export function unusedPart(
  row: Pick<SubscriptionRow, "planId" | "currentStart" | "currentEnd" | "status"> &
    Partial<Pick<SubscriptionRow, "currency">>,
  at: Date,
): { paise: number; currency: Currency; days: number; ofDays: number } | null {
  if (!STATUS_RULES[row.status].paying) return null;
  if (!row.currentStart || !row.currentEnd || !isPaidPlanId(row.planId)) return null;
  const ofDays = Math.round((row.currentEnd.getTime() - row.currentStart.getTime()) / DAY_MS);
  const days = Math.floor((row.currentEnd.getTime() - at.getTime()) / DAY_MS);
  if (ofDays <= 0 || days <= 0) return null;
  // In the subscription's currency (its plan's price there): a refund is in the payment's.
  const currency = row.currency ?? "INR";
  const price = planPriceIn(planById(row.planId), currency);
  const paise = Math.floor((price * Math.min(days, ofDays)) / ofDays);
  return { paise, currency, days: Math.min(days, ofDays), ofDays };
}

const DAY_MS = 86_400_000;

/** Razorpay's seconds as an ISO date, or null. */
function fromSeconds(seconds: number | null | undefined): string | null {
  return seconds ? new Date(seconds * 1000).toISOString() : null;
}
