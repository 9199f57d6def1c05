/**
 * Refunds are money-lane jobs. Whoever asks (an operator on /admin-fix-subscription, or the
 * duplicate-checkout guard) writes the request and its audit row first, in one transaction with
 * the job; the job then calls Razorpay with the request's key in `X-Refund-Idempotency`, so a
 * retry after a time-out, a crash or a lost lease gets the refund the first attempt made, never a
 * second one. Recording the refund, its credit note and the customer's mail is idempotent too, and
 * the same code runs when Razorpay reports a refund made elsewhere (its dashboard).
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { type Currency, formatProviderMoney } from "~/lib/money";
import { subscriptionCustomer } from "../alerts/customer-path.server";
import { raiseAlert } from "../alerts/raise.server";
import { type Database, db as defaultDb, type Executor } from "../db";
import { auditLog, jobs, payments, refunds } from "../db/schema";
import { defineJob, enqueue } from "../jobs/define";
import { dedupeKeyTaken } from "../jobs/queue.server";
import { PermanentJobError } from "../jobs/worker.server";
import { AppError } from "../http/errors";
import { issueCreditNoteForRefund } from "../invoices/issue.server";
import { queueBillingMail } from "./notify.server";
import { recordPayment, recordRefund } from "./payments.server";
import { endRefundedPeriod } from "./refunded-period.server";
import { razorpay } from "./provider.server";
import { RazorpayError, type RazorpayClient } from "./razorpay/client";
import type { RazorpayRefund } from "./razorpay/types";

export const REFUND_JOB = "billing.refund";

/** A request's key: Razorpay wants 10+ letters, digits, `-` or `_`. */
export const refundKey = z.string().regex(/^rf_[A-Za-z0-9_-]{10,60}$/);

const refundPayload = z.object({
  paymentId: z.string().regex(/^pay_\w+$/),
  amountPaise: z.number().int().min(100),
  reason: z.string().min(1).max(500),
  key: refundKey,
  /** Who asked: an operator, or the site itself ("system"). */
  actor: z.object({ id: z.string().nullable(), email: z.string().min(1).max(320) }),
  targetUserId: z.string().nullable(),
});
export type RefundRequest = z.output<typeof refundPayload>;

/**
 * Stores a refund request (its job and an audit row) in the caller's transaction; false when that
 * key was requested already (a double submit), so nothing is stored twice. Every caller (an
 * operator, the duplicate guard) goes through one check, made with the payment's row locked until
 * the caller commits: the request fits in what is left once refunds made and requested are taken
 * off, so two requests with different keys can never both take the last of it (issue 32, point 6).
 */
export async function queueRefund(executor: Executor, request: RefundRequest): Promise<boolean> {
  const dedupeKey = `refund:${request.key}`;
  if (await dedupeKeyTaken(executor, dedupeKey)) return false;
  const left = await refundableLeft(executor, request.paymentId);
  if (left === null)
    throw new AppError("not_found", `No payment ${request.paymentId} is recorded.`);
  if (request.amountPaise > left)
    throw new AppError(
      "conflict",
      "Nothing is left to refund on this payment (refunds requested count).",
    );
  const queued = await enqueue(executor, refundJob, request, { dedupeKey });
  if (!queued) return false;
  await executor.insert(auditLog).values({
    actorUserId: request.actor.id,
    actorEmail: request.actor.email,
    action: "payment.refund.requested",
    targetUserId: request.targetUserId,
    target: request.paymentId,
    reason: request.reason,
    before: null,
    after: { amountPaise: request.amountPaise, key: request.key },
  });
  return true;
}

/**
 * What is left to refund of a payment, in paise: paid, less refunds made and requested. Locks the
 * payment's row until the caller's transaction ends, so the answer holds while it acts on it.
 * Null when the payment is not recorded.
 */
export async function refundableLeft(
  executor: Executor,
  paymentId: string,
): Promise<number | null> {
  const [payment] = await executor
    .select({ amount: payments.amountPaise, refunded: payments.amountRefundedPaise })
    .from(payments)
    .where(eq(payments.providerPaymentId, paymentId))
    .for("update");
  if (!payment) return null;
  return payment.amount - payment.refunded - (await pendingRefundPaise(executor, paymentId));
}

/** Refund jobs requested and not yet made (nor failed for good) whose payload has `field` = `value`. */
function refundJobsInFlight(field: "paymentId" | "targetUserId", value: string) {
  return and(
    eq(jobs.kind, REFUND_JOB),
    isNull(jobs.completedAt),
    isNull(jobs.failedAt),
    sql`${jobs.payload}->>${field} = ${value}`,
  );
}

/** Refunds requested and not yet made (nor failed for good), per payment, in paise. */
export async function pendingRefundPaise(executor: Executor, paymentId: string): Promise<number> {
  const [row] = await executor
    .select({
      amount: sql<number>`coalesce(sum((${jobs.payload}->>'amountPaise')::int), 0)::int`,
    })
    .from(jobs)
    .where(refundJobsInFlight("paymentId", paymentId));
  return Number(row?.amount ?? 0);
}

/**
 * What follows a refund Razorpay reports, however it was made: the refund row, the payment's new
 * state, a credit note once it is processed, and one mail to the customer.
 */
export async function settleRefund(
  executor: Executor,
  refund: RazorpayRefund,
  reason: string | null = null,
): Promise<{ creditNoteNumber: string | null }> {
  await recordRefund(executor, refund, reason);
  if (refund.status !== "processed") return { creditNoteNumber: null };
  // A refund that leaves the current period unpaid ends the subscription (the refund policy).
  await endRefundedPeriod(executor, refund.payment_id);
  const note = await issueCreditNoteForRefund(executor, {
    refundId: refund.id,
    paymentId: refund.payment_id,
    amountPaise: refund.amount,
    refundedAt: new Date(refund.created_at * 1000),
    reason,
  });
  const [payment] = await executor
    .select({ subscriptionId: payments.subscriptionId })
    .from(payments)
    .where(eq(payments.providerPaymentId, refund.payment_id));
  if (payment?.subscriptionId) {
    await queueBillingMail(executor, "refunded", payment.subscriptionId, refund.id, {
      paymentId: refund.payment_id,
      refundId: refund.id,
    });
    const customer = await subscriptionCustomer(executor, payment.subscriptionId);
    if (customer)
      await raiseAlert(executor, {
        kind: "refund",
        key: `refund:${refund.id}`,
        summary: `${formatProviderMoney(refund.amount, refund.currency)} was refunded to ${customer.email} (${refund.payment_id}${note ? `, credit note ${note.number}` : ""}).`,
        path: customer.path,
      });
  }
  return { creditNoteNumber: note?.number ?? null };
}

/** The job: make the refund at Razorpay (once, by its key) and settle it here. */
export async function makeRefund(
  request: RefundRequest,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<{ refundId: string; creditNoteNumber: string | null }> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  let refund: RazorpayRefund;
  try {
    refund = await client.refundPayment(
      request.paymentId,
      {
        amount: request.amountPaise,
        receipt: request.key.slice(0, 40),
        notes: {
          reason: request.reason.slice(0, 250),
          by: request.actor.email,
          request: request.key,
        },
      },
      request.key,
    );
  } catch (error) {
    // 409: the same key is still being processed at Razorpay; retrying is what it asks for.
    if (error instanceof RazorpayError && error.refused && error.status !== 409)
      throw new PermanentJobError(`Razorpay refused the refund: ${error.description}`);
    throw error;
  }
  const fresh = await client.fetchPayment(request.paymentId);
  return database.transaction(async (tx) => {
    // One "made" row per refund, whichever attempt (or webhook) recorded it first.
    const made = await tx
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, "payment.refund"), eq(auditLog.target, request.paymentId)));
    const known = made.some(
      (row) => (row.after as { refundId?: unknown } | null)?.refundId === refund.id,
    );
    await recordPayment(tx, fresh, null);
    const { creditNoteNumber } = await settleRefund(tx, refund, request.reason);
    if (!known)
      await tx.insert(auditLog).values({
        actorUserId: request.actor.id,
        actorEmail: request.actor.email,
        action: "payment.refund",
        targetUserId: request.targetUserId,
        target: request.paymentId,
        reason: request.reason,
        before: { key: request.key },
        after: {
          refundId: refund.id,
          amountPaise: refund.amount,
          status: refund.status,
          amountRefundedPaise: fresh.amount_refunded,
          creditNote: creditNoteNumber,
        },
      });
    return { refundId: refund.id, creditNoteNumber };
  });
}

/** A refund (money lane): its key makes every attempt the same request at Razorpay. */
export const refundJob = defineJob({
  name: REFUND_JOB,
  lane: "money",
  payload: refundPayload,
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler(payload) {
    await makeRefund(payload);
  },
});

export interface CustomerRefund {
  paymentId: string;
  /** In `currency`'s minor unit: the payment's currency. */
  amountPaise: number;
  currency: Currency;
  /** Requested: stored, not yet made at Razorpay. Then Razorpay's own status. */
  status: "requested" | "pending" | "processed" | "failed";
  refundId: string | null;
  /** The bank's reference, once Razorpay has it. */
  arn: string | null;
  at: Date;
}

/**
 * A customer's refunds as /invoices shows them (issue 34, point 4): those made, with Razorpay's
 * status, refund id and the bank's reference, and those requested but not made yet. Newest first.
 */
export async function refundsOfCustomer(
  userId: string,
  database: Database = defaultDb(),
): Promise<CustomerRefund[]> {
  const made = await database
    .select({
      paymentId: refunds.providerPaymentId,
      amountPaise: refunds.amountPaise,
      currency: refunds.currency,
      status: refunds.status,
      refundId: refunds.providerRefundId,
      arn: refunds.arn,
      at: refunds.createdAt,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.providerPaymentId, refunds.providerPaymentId))
    .where(eq(payments.userId, userId));
  const requested = await database
    .select({ payload: jobs.payload, at: jobs.createdAt })
    .from(jobs)
    .where(refundJobsInFlight("targetUserId", userId));
  const statusOf = (status: string): CustomerRefund["status"] =>
    status === "processed" || status === "failed" ? status : "pending";
  // A request not made yet is in its payment's currency.
  const requestedIds = requested.map(
    ({ payload }) => (payload as Pick<RefundRequest, "paymentId">).paymentId,
  );
  const currencies = new Map(
    requestedIds.length === 0
      ? []
      : (
          await database
            .select({ id: payments.providerPaymentId, currency: payments.currency })
            .from(payments)
            .where(inArray(payments.providerPaymentId, requestedIds))
        ).map((row) => [row.id, row.currency] as const),
  );
  return [
    ...requested.map(({ payload, at }) => {
      const request = payload as Pick<RefundRequest, "paymentId" | "amountPaise">;
      return {
        paymentId: request.paymentId,
        amountPaise: request.amountPaise,
        currency: currencies.get(request.paymentId) ?? ("INR" as const),
        status: "requested" as const,
        refundId: null,
        arn: null,
        at,
      };
    }),
    ...made.map((row) => ({ ...row, status: statusOf(row.status) })),
  ].sort((a, b) => b.at.getTime() - a.at.getTime());
}
