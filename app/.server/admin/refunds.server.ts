/**
 * Refunds from the operator's customer page: review (what is left, what the policy says happens
 * to the subscription), request (one key, made once by the refund job) and wait for the outcome.
 * The role is checked again here, and every request is audited.
 */
import { and, eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { type Currency, formatMoney } from "~/lib/money";
import { assertAdmin, type Session } from "../auth/session";
import { type Database, db as defaultDb, type Executor } from "../db";
import { auditLog, jobs, payments, subscriptions } from "../db/schema";
import { pendingRefundPaise, queueRefund } from "../billing/refunds.server";
import { currentPeriodLeft } from "../billing/refunded-period.server";
import { MAY_CHARGE_STATUSES } from "../billing/subscriptions.server";
import { creditNoteFor } from "../invoices/engine.server";
import { invoiceForPayment } from "../invoices/issue.server";
import { kickJobs } from "../jobs/kick";
import { dedupeKeyTaken } from "../jobs/queue.server";
import { AppError } from "../http/errors";

export interface RefundReview {
  paymentId: string;
  /** This amount and the two below are in `currency`'s minor unit: the payment's (issue 56). */
  amountPaise: number;
  currency: Currency;
  paidPaise: number;
  /** What could still be refunded before this one (refunds made and requested subtracted). */
  refundablePaise: number;
  paidAt: string;
  /**
   * The credit note against the payment's invoice, as it will be issued: in rupees (an export's
   * at its invoice's rate, with no tax).
   */
  creditNote: {
    against: string;
    taxablePaise: number;
    taxPaise: number;
    totalPaise: number;
  } | null;
  /** The request's idempotency key, carried by the confirmation form. */
  key: string;
  /**
   * The subscription the payment is for, while it may still charge (issue 33, point 7): the
   * refund either leaves its current period unpaid, which ends it at once by the refund policy
   * ("ends"), or the admin chooses whether it ends now, at the end of the period, or runs on
   * ("choose"). Null when nothing more can be charged.
   */
  subscription: { id: string; afterRefund: "ends" | "choose" } | null;
}

/**
 * The payment and what is left of it to refund. With `lock`, in the transaction that queues the
 * refund: the payment row is locked, so two confirmations of different refunds (two operators,
 * two instances) check what is left one after the other, each seeing the other's request (issue
 * 32, point 6: three of four simultaneous full refunds passed the check).
 */
async function refundablePayment(
  database: Executor,
  userId: string,
  paymentId: string,
  amountPaise: number | null,
  options: { lock?: boolean } = {},
) {
  const query = database
    .select()
    .from(payments)
    .where(and(eq(payments.providerPaymentId, paymentId), eq(payments.userId, userId)));
  const [payment] = options.lock ? await query.for("update") : await query;
  if (!payment) throw new AppError("not_found", "That payment does not belong to this customer.");
  if (payment.status !== "captured" && payment.status !== "refunded")
    throw new AppError("invalid", "Only a captured payment can be refunded.");
  const refundable =
    payment.amountPaise -
    payment.amountRefundedPaise -
    (await pendingRefundPaise(database, payment.providerPaymentId));
  if (refundable < 100)
    throw new AppError(
      "conflict",
      "Nothing is left to refund on this payment (refunds requested count).",
    );
  const amount = amountPaise ?? refundable;
  // Razorpay's minimum refund is one unit of the currency (₹1.00, $1.00, €1.00).
  if (amount < 100 || amount > refundable)
    throw new AppError(
      "invalid",
      `You can refund between ${formatMoney(100, payment.currency)} and what is left (${formatMoney(refundable, payment.currency)}).`,
    );
  return { payment, refundable, amount };
}

/** Step one of a refund: checks it and shows what will happen; nothing is stored or sent. */
export async function reviewRefund(
  session: Session,
  userId: string,
  input: { paymentId: string; amountPaise: number | null },
  options: { database?: Database } = {},
): Promise<RefundReview> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const { payment, refundable, amount } = await refundablePayment(
    database,
    userId,
    input.paymentId,
    input.amountPaise,
  );
  const original = await invoiceForPayment(database, payment.providerPaymentId);
  const note = original ? creditNoteFor(original.document, amount) : null;
  return {
    paymentId: payment.providerPaymentId,
    amountPaise: amount,
    currency: payment.currency,
    paidPaise: payment.amountPaise,
    refundablePaise: refundable,
    paidAt: payment.paidAt.toISOString(),
    creditNote:
      original && note
        ? {
            against: original.number,
            taxablePaise: note.tax.taxablePaise,
            taxPaise: note.tax.totalPaise - note.tax.taxablePaise,
            totalPaise: note.tax.totalPaise,
          }
        : null,
    key: `rf_${randomUUID()}`,
    subscription: await subscriptionAfterRefund(payment.providerPaymentId, amount, database),
  };
}

/** What a refund of `amountPaise` of a payment does to its subscription (RefundReview). */
export async function subscriptionAfterRefund(
  paymentId: string,
  amountPaise: number,
  database: Executor = defaultDb(),
): Promise<RefundReview["subscription"]> {
  const period = await currentPeriodLeft(database, paymentId, amountPaise);
  if (period) {
    if (!MAY_CHARGE_STATUSES.includes(period.status)) return null;
    return {
      id: period.providerSubscriptionId,
      afterRefund: period.charges > 0 && period.leftPaise === 0 ? "ends" : "choose",
    };
  }
  // An earlier period's payment: the subscription runs on unless the admin ends it.
  const [row] = await database
    .select({ id: subscriptions.providerSubscriptionId, status: subscriptions.status })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(eq(payments.providerPaymentId, paymentId));
  return row && MAY_CHARGE_STATUSES.includes(row.status)
    ? { id: row.id, afterRefund: "choose" }
    : null;
}

/**
 * Step two: the confirmed refund is stored as a money-lane job with its audit row, before
 * Razorpay is called (billing/refunds.server.ts). The same key again (a double submit) stores
 * nothing more.
 */
export async function requestRefund(
  session: Session,
  userId: string,
  input: { paymentId: string; amountPaise: number; reason: string; key: string },
  options: { database?: Database } = {},
): Promise<{ queued: boolean }> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  if (await refundRequested(database, input.key)) return { queued: false };
  const queued = await database.transaction(async (tx) => {
    try {
      await refundablePayment(tx, userId, input.paymentId, input.amountPaise, { lock: true });
    } catch (error) {
      // The same confirmation submitted twice at once: the other submit stored (or even made)
      // it meanwhile, and it counts against what is left. That is this request, not a refusal.
      if (await refundRequested(tx, input.key)) return false;
      throw error;
    }
    return queueRefund(tx, {
      paymentId: input.paymentId,
      amountPaise: input.amountPaise,
      reason: input.reason,
      key: input.key,
      actor: { id: session.user.id, email: session.user.email },
      targetUserId: userId,
    });
  });
  if (queued) kickJobs();
  return { queued };
}

function refundRequested(database: Executor, key: string): Promise<boolean> {
  return dedupeKeyTaken(database, `refund:${key}`);
}

/** How a requested refund stands: made (with its credit note), refused, or still under way. */
export async function refundOutcome(
  database: Database,
  paymentId: string,
  key: string,
): Promise<
  | { state: "made"; refundId: string; amountPaise: number; creditNote: string | null }
  | { state: "refused"; error: string }
  | { state: "waiting" }
> {
  const [job] = await database
    .select({ failedAt: jobs.failedAt, lastError: jobs.lastError, completedAt: jobs.completedAt })
    .from(jobs)
    .where(eq(jobs.dedupeKey, `refund:${key}`));
  if (job?.failedAt) return { state: "refused", error: job.lastError ?? "failed" };
  if (!job?.completedAt) return { state: "waiting" };
  const rows = await database
    .select({ before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.action, "payment.refund"), eq(auditLog.target, paymentId)));
  const made = rows.find((row) => (row.before as { key?: string } | null)?.key === key);
  const after = made?.after as
    { refundId: string; amountPaise: number; creditNote: string | null } | undefined;
  if (!after) return { state: "waiting" };
  return {
    state: "made",
    refundId: after.refundId,
    amountPaise: after.amountPaise,
    creditNote: after.creditNote,
  };
}

/**
 * The outcome of a refund just requested, waiting a few seconds for the money lane to make it
 * (the page then says what happened); past that, it says the refund is under way.
 */
export async function awaitRefund(
  paymentId: string,
  key: string,
  options: { database?: Database; waitMs?: number } = {},
): ReturnType<typeof refundOutcome> {
  const database = options.database ?? defaultDb();
  const deadline = Date.now() + (options.waitMs ?? 8_000);
  for (;;) {
    const outcome = await refundOutcome(database, paymentId, key);
    if (outcome.state !== "waiting" || Date.now() > deadline) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
