/**
 * The customer's own refund, inside the refund policy (issue 34, point 4; content/legal/refund.md):
 * the first payment of a new subscription, in full, within REFUND_WINDOW_DAYS of paying. It is the
 * operator's refund (billing/refunds.server.ts) asked for by the customer: one request key per
 * confirmation, stored with its job and audit row before Razorpay is called, so a confirmation
 * sent twice refunds once. The refund leaves the period unpaid, so the subscription ends with it
 * and the account moves to Free (refunded-period.server.ts), with one mail and a credit note.
 * Anything else (a renewal, a duplicate charge, a case the law covers) goes to the support desk.
 */
import { trialOf } from "../trials/trials.server";
import { allows } from "~/lib/subscription-state";
import { stateOfRow } from "./subscription-state.server";
import { randomUUID } from "node:crypto";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import { and, asc, eq, inArray, or } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { payments, refunds, selfRefunds, subscriptions, user as users } from "../db/schema";
import { mailboxKey } from "../security/person-keys.server";
import { AppError } from "../http/errors";
import { dedupeKeyTaken } from "../jobs/queue.server";
import { kickJobs } from "../jobs/kick";
import { taxOfCharge } from "../invoices/preview.server";
import { paymentMethodOf } from "./payments.server";
import { pendingRefundPaise, queueRefund, refundableLeft } from "./refunds.server";
import { refundWindowOpen } from "./refund-window.server";
import { primarySubscription, subscriptionsOf } from "./subscriptions.server";
import { planLabel } from "~/lib/plans";
import type { GstSplit } from "~/lib/gst-split";
import type { Currency, Money } from "~/lib/money";

const WINDOW_MS = REFUND_WINDOW_DAYS * 86_400_000;

/** Why a subscription's first payment cannot be refunded from the account page. */
export type SelfRefundRefusal = "refunded" | "renewed" | "past-window" | "had-one";

export interface SelfRefundOffer {
  paymentId: string;
  plan: string;
  /** In `currency`'s minor unit: the payment's own currency (issue 56). */
  amountPaise: number;
  currency: Currency;
  /** The GST the credit note will reverse; null for a payment abroad (an export, no GST). */
  tax: GstSplit | null;
  /** Where the money goes back: "Visa •••• 4366". */
  method: string;
  paidAt: string;
  /** The last moment a request is taken (ISO). */
  until: string;
  /** This confirmation's request key: submitted twice, it refunds once. */
  key: string;
  /** A free trial that goes on giving Pro after the refund (ISO end), or null: Free then. */
  trialUntil: string | null;
}

/**
 * The refund the customer may ask for now, or null: the primary subscription is active, is not a
 * plan switch, has exactly one payment, captured (nothing refunded or requested), made within the
 * window, and neither this account nor its mailbox has had one before (finding 3: once per
 * customer; a second account on the same mailbox is the same customer).
 */
export async function selfRefundStanding(
  userId: string,
  options: { database?: Database; now?: Date } = {},
): Promise<SelfRefundOffer | { refused: SelfRefundRefusal } | null> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  const current = primarySubscription(await subscriptionsOf(userId, database));
  if (!current || !allows(stateOfRow(current), "refund") || current.replacesSubscriptionId)
    return null;
  const paid = await database
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.subscriptionId, current.id),
        inArray(payments.status, ["captured", "refunded"]),
      ),
    )
    .orderBy(asc(payments.paidAt));
  const [first] = paid;
  if (!first) return null;
  // Why not, in the order a customer would ask: a refund made already is the reason, even on
  // the day of paying (issue 54: it was called "past the window").
  if (first.status !== "captured" || first.amountRefundedPaise > 0) return { refused: "refunded" };
  if (await refundUnderWay(database, first.providerPaymentId)) return { refused: "refunded" };
  if (paid.length !== 1) return { refused: "renewed" };
  if (now.getTime() - first.paidAt.getTime() > WINDOW_MS) return { refused: "past-window" };
  if (await hadSelfRefund(database, userId)) return { refused: "had-one" };
  return {
    paymentId: first.providerPaymentId,
    plan: planLabel(current.planId),
    amountPaise: first.amountPaise,
    currency: first.currency,
    tax: first.currency === "INR" ? await taxOfCharge(database, userId, first.amountPaise) : null,
    method: paymentMethodOf(first).customerLabel,
    paidAt: first.paidAt.toISOString(),
    until: new Date(first.paidAt.getTime() + WINDOW_MS).toISOString(),
    key: `rf_${randomUUID()}`,
    trialUntil: await runningTrialEnd(database, userId, now),
  };
}

/** The refund on offer now, or null (why not: `selfRefundStanding`). */
export async function selfRefundOffer(
  userId: string,
  options: { database?: Database; now?: Date } = {},
): Promise<SelfRefundOffer | null> {
  const standing = await selfRefundStanding(userId, options);
  return standing && "paymentId" in standing ? standing : null;
}

/** The end of the person's free trial while it runs (ISO), else null. */
async function runningTrialEnd(database: Database, userId: string, now: Date) {
  const trial = await trialOf(userId, database);
  return trial && trial.endsAt > now ? trial.endsAt.toISOString() : null;
}

/** Whether this account, or another on its mailbox, has had its own refund before. */
async function hadSelfRefund(database: Database, userId: string): Promise<boolean> {
  const [person] = await database
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!person) return true;
  const [had] = await database
    .select({ at: selfRefunds.requestedAt })
    .from(selfRefunds)
    .where(or(eq(selfRefunds.userId, userId), eq(selfRefunds.mailboxKey, mailboxKey(person.email))))
    .limit(1);
  return had !== undefined;
}

/** A refund of this payment requested and not yet made, or made already. */
async function refundUnderWay(database: Database, paymentId: string): Promise<boolean> {
  if ((await pendingRefundPaise(database, paymentId)) > 0) return true;
  const [made] = await database
    .select({ id: refunds.providerRefundId })
    .from(refunds)
    .where(eq(refunds.providerPaymentId, paymentId))
    .limit(1);
  return made !== undefined;
}

/**
 * The confirmed request: checked again against the policy now, then stored as the refund job with
 * its audit row. The same key again (a double submit) stores nothing more and is not an error.
 */
export async function requestSelfRefund(
  user: { id: string; email: string },
  input: { paymentId: string; key: string },
  options: { database?: Database; now?: Date } = {},
): Promise<{ queued: boolean; refund: Money }> {
  const database = options.database ?? defaultDb();
  const [payment] = await database
    .select({
      amountPaise: payments.amountPaise,
      currency: payments.currency,
      subscriptionUser: subscriptions.userId,
    })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(eq(payments.providerPaymentId, input.paymentId));
  // Someone else's payment is not found, as if it did not exist.
  if (!payment || payment.subscriptionUser !== user.id)
    throw new AppError("not_found", "That payment is not one of yours.");
  const refused = () =>
    new AppError(
      "conflict",
      `This payment can no longer be refunded from here: the ${REFUND_WINDOW_DAYS}-day refund covers a new subscription's first payment, once per customer (account and email address). Open a support ticket and we will look at it.`,
    );
  const offer = await selfRefundOffer(user.id, { database, now: options.now });
  if (!offer || offer.paymentId !== input.paymentId) {
    // The other submit of this confirmation stored it already: the same request, not a refusal.
    if (await dedupeKeyTaken(database, `refund:${input.key}`))
      return { queued: false, refund: { amount: payment.amountPaise, currency: payment.currency } };
    throw refused();
  }
  const queued = await database.transaction(async (tx) => {
    // The payment's row stays locked until this commits: two confirmations (two tabs, two keys)
    // are taken one after the other, and the second finds the first one's request.
    const left = await refundableLeft(tx, input.paymentId);
    if (left !== offer.amountPaise) {
      if (await dedupeKeyTaken(tx, `refund:${input.key}`)) return false;
      throw refused();
    }
    // The window by the database's clock, under the payment's lock, as the referral reward
    // decides it: two instances whose clocks differ never both refund and reward one payment.
    if (!(await refundWindowOpen(tx, input.paymentId))) throw refused();
    // Once per account and mailbox, decided by the table's unique keys: two accounts on one
    // mailbox asking at the same moment get one refund between them.
    const taken = await tx
      .insert(selfRefunds)
      .values({
        mailboxKey: mailboxKey(user.email),
        userId: user.id,
        providerPaymentId: input.paymentId,
      })
      .onConflictDoNothing()
      .returning({ at: selfRefunds.requestedAt });
    if (taken.length === 0) throw refused();
    return queueRefund(tx, {
      paymentId: input.paymentId,
      amountPaise: offer.amountPaise,
      reason: `The customer's ${REFUND_WINDOW_DAYS}-day refund of a first payment`,
      key: input.key,
      actor: { id: user.id, email: user.email },
      targetUserId: user.id,
    });
  });
  if (queued) kickJobs();
  return { queued, refund: { amount: payment.amountPaise, currency: payment.currency } };
}
