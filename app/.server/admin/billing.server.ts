/**
 * The operator's view of billing: numbers for the dashboard, the subscription list, one
 * customer's billing history, and the repair actions. Every action writes the audit log with the
 * state before and after; the role is checked again here, not only by the route guard.
 */
import { and, count, desc, eq, gte, ilike, inArray, or, type SQL } from "drizzle-orm";
import { stateByCode, validateGstin } from "~/lib/gst";
import { randomUUID } from "node:crypto";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import { istMonth, istMonthRange } from "~/lib/india-time";
import { findPlan, isPaidPlanId, monthlyValuePaise, type PaidPlanId } from "~/lib/plans";
import { assertAdmin, type Session } from "../auth/session";
import { type Database, db as defaultDb, type Executor } from "../db";
import { pageWindow, requestedPage } from "~/lib/paging";
import {
  auditLog,
  entitlementGrants,
  invoiceColumns,
  invoices,
  jobs,
  payments,
  refunds,
  SUBSCRIPTION_STATUSES,
  subscriptions,
  user as users,
  webhookEvents,
} from "../db/schema";
import { pendingRefundPaise, queueRefund } from "../billing/refunds.server";
import { currentPeriodLeft } from "../billing/refunded-period.server";
import { MAY_CHARGE_STATUSES } from "../billing/subscriptions.server";
import type { RazorpayClient } from "../billing/razorpay/client";
import { resyncFromProvider } from "../billing/resync.server";
import { processWebhookEvent } from "../billing/webhooks.server";
import { creditNoteFor } from "../invoices/engine.server";
import { invoiceForPayment, reissueWithBuyer } from "../invoices/issue.server";
import { kickJobs } from "../jobs";
import { dedupeKeyTaken } from "../jobs/queue.server";
import { audit } from "./audit.server";
import { escapeLike } from "./users.server";
import { AppError } from "../http/errors";

export interface BillingStats {
  mrrPaise: number;
  activeSubscriptions: number;
  failedPaymentsThisMonth: number;
}

/** MRR counts subscriptions that are paying (active, or pending while Razorpay retries). */
export async function billingStats(
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<BillingStats> {
  const [paying, [failed]] = await Promise.all([
    database
      .select({ planId: subscriptions.planId, cancelling: subscriptions.cancelAtCycleEnd })
      .from(subscriptions)
      .where(inArray(subscriptions.status, ["active", "pending"])),
    database
      .select({ value: count() })
      .from(payments)
      .where(
        and(
          eq(payments.status, "failed"),
          gte(payments.paidAt, istMonthRange(istMonth(now))?.from ?? now),
        ),
      ),
  ]);
  let mrr = 0;
  for (const row of paying) {
    const plan = findPlan(row.planId);
    // A subscription cancelled at period end brings no more recurring revenue.
    if (plan && !row.cancelling) mrr += monthlyValuePaise(plan);
  }
  return {
    mrrPaise: mrr,
    activeSubscriptions: paying.length,
    failedPaymentsThisMonth: failed?.value ?? 0,
  };
}

export const SUBSCRIPTIONS_PER_PAGE = 50;

export interface SubscriptionQuery {
  status: (typeof SUBSCRIPTION_STATUSES)[number] | "";
  plan: PaidPlanId | "";
  q: string;
  page: number;
}

export function parseSubscriptionQuery(params: URLSearchParams): SubscriptionQuery {
  const status = params.get("status") ?? "";
  const plan = params.get("plan") ?? "";
  const q = (params.get("q") ?? "").trim();
  return {
    status: (SUBSCRIPTION_STATUSES as readonly string[]).includes(status)
      ? (status as SubscriptionQuery["status"])
      : "",
    plan: isPaidPlanId(plan) ? plan : "",
    q: q.length <= 200 ? q : "",
    page: requestedPage(params),
  };
}

export async function listSubscriptions(
  query: SubscriptionQuery,
  database: Database = defaultDb(),
) {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(subscriptions.status, query.status));
  if (query.plan) filters.push(eq(subscriptions.planId, query.plan));
  if (query.q.startsWith("pay_")) {
    const rows = await database
      .select({ id: payments.subscriptionId })
      .from(payments)
      .where(eq(payments.providerPaymentId, query.q));
    const ids = rows.map((row) => row.id).filter((id): id is string => id !== null);
    if (ids.length === 0)
      return { rows: [], total: 0, ...pageWindow(1, 0, SUBSCRIPTIONS_PER_PAGE) };
    filters.push(inArray(subscriptions.id, ids));
  } else if (query.q.startsWith("sub_")) {
    filters.push(eq(subscriptions.providerSubscriptionId, query.q));
  } else if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    const match = or(ilike(users.email, pattern), ilike(users.name, pattern));
    if (match) filters.push(match);
  }
  const where = filters.length ? and(...filters) : undefined;
  const [counted] = await database
    .select({ value: count() })
    .from(subscriptions)
    .leftJoin(users, eq(users.id, subscriptions.userId))
    .where(where);
  const total = counted?.value ?? 0;
  const window = pageWindow(query.page, total, SUBSCRIPTIONS_PER_PAGE);
  const rows = await database
    .select({
      id: subscriptions.id,
      providerSubscriptionId: subscriptions.providerSubscriptionId,
      planId: subscriptions.planId,
      status: subscriptions.status,
      cancelAtCycleEnd: subscriptions.cancelAtCycleEnd,
      cancelReason: subscriptions.cancelReason,
      endReason: subscriptions.endReason,
      replacesSubscriptionId: subscriptions.replacesSubscriptionId,
      currentEnd: subscriptions.currentEnd,
      createdAt: subscriptions.createdAt,
      userId: subscriptions.userId,
      email: users.email,
    })
    .from(subscriptions)
    .leftJoin(users, eq(users.id, subscriptions.userId))
    .where(where)
    // The id breaks ties, so pages never repeat or skip one created in the same instant.
    .orderBy(desc(subscriptions.createdAt), subscriptions.id)
    .limit(SUBSCRIPTIONS_PER_PAGE)
    .offset(window.offset);
  return { rows, total, ...window };
}

/** Everything support needs about one customer's billing. */
export async function customerBilling(userId: string, database: Database = defaultDb()) {
  const subs = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt));
  const providerIds = subs.map((row) => row.providerSubscriptionId);
  const [pays, events, grants, audit, documents] = await Promise.all([
    database
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.paidAt)),
    providerIds.length
      ? database
          .select({
            eventId: webhookEvents.eventId,
            event: webhookEvents.event,
            providerSubscriptionId: webhookEvents.providerSubscriptionId,
            receivedAt: webhookEvents.receivedAt,
            processedAt: webhookEvents.processedAt,
            processCount: webhookEvents.processCount,
          })
          .from(webhookEvents)
          .where(inArray(webhookEvents.providerSubscriptionId, providerIds))
          .orderBy(desc(webhookEvents.receivedAt))
          .limit(100)
      : Promise.resolve([]),
    database
      .select()
      .from(entitlementGrants)
      .where(eq(entitlementGrants.userId, userId))
      .orderBy(desc(entitlementGrants.createdAt)),
    database
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetUserId, userId))
      .orderBy(desc(auditLog.createdAt))
      .limit(100),
    database
      .select(invoiceColumns)
      .from(invoices)
      .where(eq(invoices.userId, userId))
      .orderBy(desc(invoices.issuedAt), desc(invoices.number)),
  ]);
  return { subscriptions: subs, payments: pays, events, grants, audit, invoices: documents };
}

export async function subscriptionOwnedBy(
  userId: string,
  providerSubscriptionId: string,
  database: Database,
) {
  const [row] = await database
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
      ),
    );
  if (!row) throw new AppError("not_found", "That subscription does not belong to this customer.");
  return row;
}

const snapshot = (row: {
  status: string;
  currentEnd: Date | null;
  chargeAt: Date | null;
  paidCount: number;
}) => ({
  status: row.status,
  currentEnd: row.currentEnd?.toISOString() ?? null,
  chargeAt: row.chargeAt?.toISOString() ?? null,
  paidCount: row.paidCount,
});

export async function adminResync(
  session: Session,
  userId: string,
  providerSubscriptionId: string,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const before = await subscriptionOwnedBy(userId, providerSubscriptionId, database);
  const after = await resyncFromProvider(providerSubscriptionId, options);
  await audit(database, session, {
    action: "subscription.resync",
    targetUserId: userId,
    target: providerSubscriptionId,
    before: snapshot(before),
    after: after ? snapshot(after) : null,
  });
  return after ? `Resynced: Razorpay says ${after.status}.` : "Resynced.";
}

export async function adminReplay(
  session: Session,
  userId: string,
  eventId: string,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const [event] = await database
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.eventId, eventId));
  if (!event?.providerSubscriptionId)
    throw new AppError("not_found", "No such event for this customer.");
  const before = await subscriptionOwnedBy(userId, event.providerSubscriptionId, database);
  await processWebhookEvent(eventId, { ...options, replay: true });
  const after = await subscriptionOwnedBy(userId, event.providerSubscriptionId, database);
  await audit(database, session, {
    action: "webhook.replay",
    targetUserId: userId,
    target: eventId,
    before: snapshot(before),
    after: snapshot(after),
  });
  return `Replayed ${event.event} (${eventId}).`;
}

/** What an operator confirms before a refund is made: the amount and the credit note it issues. */
export interface RefundReview {
  paymentId: string;
  amountPaise: number;
  paidPaise: number;
  /** What could still be refunded before this one (refunds made and requested subtracted). */
  refundablePaise: number;
  paidAt: string;
  /** The credit note against the payment's tax invoice, as it will be issued. */
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
  // Razorpay's minimum refund is ₹1.00.
  if (amount < 100 || amount > refundable)
    throw new AppError(
      "invalid",
      `You can refund between ₹1.00 and what is left (${formatInr(refundable)}).`,
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

export async function adminGrant(
  session: Session,
  userId: string,
  input: { planId: PaidPlanId; days: number; reason: string },
  options: { database?: Database; now?: Date } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  const [owner] = await database.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!owner) throw new AppError("not_found", "No such customer.");
  const endsAt = new Date(now.getTime() + input.days * 86_400_000);
  const [grant] = await database
    .insert(entitlementGrants)
    .values({
      userId,
      planId: input.planId,
      startsAt: now,
      endsAt,
      reason: input.reason,
      grantedBy: session.user.id,
    })
    .returning();
  await audit(database, session, {
    action: "entitlement.grant",
    targetUserId: userId,
    target: grant?.id ?? null,
    reason: input.reason,
    before: null,
    after: { planId: input.planId, endsAt: endsAt.toISOString() },
  });
  return `Granted ${input.planId} for ${input.days} days, until ${formatDate(endsAt)}.`;
}

export async function refundsOf(paymentIds: string[], database: Database = defaultDb()) {
  if (paymentIds.length === 0) return [];
  return database.select().from(refunds).where(inArray(refunds.providerPaymentId, paymentIds));
}

/**
 * Corrects the buyer's GSTIN on an issued invoice: a full credit note against it and a new
 * invoice with the corrected buyer (never an edit in place), recorded in the audit log.
 */
export async function adminCorrectGstin(
  session: Session,
  userId: string,
  input: { invoiceId: string; gstin: string | null; reason: string },
  options: { database?: Database; now?: Date } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const [original] = await database
    .select(invoiceColumns)
    .from(invoices)
    .where(
      and(
        eq(invoices.id, input.invoiceId),
        eq(invoices.userId, userId),
        eq(invoices.kind, "invoice"),
      ),
    );
  if (!original) throw new AppError("not_found", "That invoice does not belong to this customer.");
  const credited = await database
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.originalInvoiceId, original.id), eq(invoices.kind, "credit_note")));
  if (credited.length > 0)
    throw new AppError(
      "invalid",
      "That invoice already has a credit note; correct its replacement instead.",
    );
  const { document } = original;
  let buyer = { ...document.buyer, gstin: input.gstin };
  if (input.gstin) {
    const checked = validateGstin(input.gstin);
    if (!checked.ok) throw new AppError("invalid", checked.error);
    // The registration decides the state on a B2B invoice.
    buyer = {
      ...buyer,
      gstin: checked.gstin,
      stateCode: checked.stateCode,
      stateName: stateByCode(checked.stateCode)?.name ?? null,
    };
  }
  const { creditNote, invoice } = await database.transaction((tx) =>
    reissueWithBuyer(tx, original, buyer, options.now ?? new Date()),
  );
  await audit(database, session, {
    action: "invoice.correct-gstin",
    targetUserId: userId,
    target: original.number,
    reason: input.reason,
    before: { invoice: original.number, gstin: document.buyer.gstin },
    after: { creditNote: creditNote.number, invoice: invoice.number, gstin: buyer.gstin },
  });
  return `Issued credit note ${creditNote.number} and invoice ${invoice.number}.`;
}
