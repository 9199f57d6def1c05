/**
 * Razorpay webhooks: verify, store, acknowledge; then process once, in a job.
 *
 * Receiving only stores the event (unique on its id) and enqueues its processing in the same
 * transaction, so the 2xx goes out quickly and a crash after it loses nothing. Processing
 * fetches the subscription from Razorpay instead of trusting the event's snapshot, so events
 * arriving late or out of order cannot move a subscription back to an older state.
 */
import { STATUS, STATUS_RULES } from "~/lib/subscription-state";
import { createHash, createHmac } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { webhookEventIds, webhookEvents } from "../db/schema";
import { z } from "zod";
import { countOf } from "~/lib/format";
import { subscriptionCustomer } from "../alerts/customer-path.server";
import { raiseAlert } from "../alerts/raise.server";
import { defineJob, enqueue } from "../jobs/define";
import { PermanentJobError } from "../jobs/worker.server";
import { safeEqual } from "../security/tokens";
import { queueBillingMail } from "./notify.server";
import { applyAndFollowUp } from "./resync.server";
import { subscriptionByProviderId } from "./subscriptions.server";
import {
  creditRefundsOf,
  issueExportInvoiceForPayment,
  issueInvoiceForPayment,
} from "../invoices/issue.server";
import { isCurrency } from "~/lib/money";
import { seatTopupPaidBy } from "../teams/topups.server";
import { couponCodeOf } from "../coupons/quote.server";
import { noteReferredPayment } from "../referrals/reward.server";
import { inrValueOf, recordPayment } from "./payments.server";
import { settleRefund } from "./refunds.server";
import { applyDispute } from "../disputes/apply.server";
import { razorpay } from "./provider.server";
import { RazorpayError, type RazorpayClient } from "./razorpay/client";
import {
  type RazorpayInvoice,
  type RazorpaySubscription,
  type RazorpayWebhookEvent,
  webhookEventSchema,
} from "./razorpay/types";

export const PROCESS_WEBHOOK_JOB = "razorpay.webhook";
const EVENT_ID = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Razorpay's signature: hex HMAC-SHA256 of the raw body with the webhook secret. */
export function webhookSignature(rawBody: string, secret: string): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("hex");
}

export function verifyWebhookSignature(
  rawBody: string,
  signature: string,
  secret: string,
): boolean {
  return safeEqual(webhookSignature(rawBody, secret), signature.trim().toLowerCase());
}

export type ReceiveResult =
  | { status: 200; outcome: "stored" | "duplicate"; eventId: string }
  | { status: 400; error: string };

/** Verifies and stores one delivery. Nothing is stored unless the signature is right. */
export async function receiveWebhook(
  input: { rawBody: string; signature: string | null; eventId: string | null },
  options: { secret: string; database?: Database },
): Promise<ReceiveResult> {
  const database = options.database ?? defaultDb();
  if (!input.signature || !verifyWebhookSignature(input.rawBody, input.signature, options.secret))
    return { status: 400, error: "Invalid or missing X-Razorpay-Signature." };
  if (!input.eventId || !EVENT_ID.test(input.eventId))
    return { status: 400, error: "Missing or malformed x-razorpay-event-id." };
  let json: unknown;
  try {
    json = JSON.parse(input.rawBody);
  } catch {
    return { status: 400, error: "The body is not JSON." };
  }
  const parsed = webhookEventSchema.safeParse(json);
  if (!parsed.success) return { status: 400, error: "The body is not a Razorpay event." };
  const event = parsed.data;
  const eventId = input.eventId;

  const stored = await database.transaction(async (tx) => {
    // The id's gate outlives the stored body (pruned 90 days after processing): a late
    // redelivery of a pruned event is still a duplicate.
    const gate = await tx
      .insert(webhookEventIds)
      .values({ eventId })
      .onConflictDoNothing({ target: webhookEventIds.eventId })
      .returning({ eventId: webhookEventIds.eventId });
    if (gate.length === 0) return false;
    const inserted = await tx
      .insert(webhookEvents)
      .values({
        eventId,
        event: event.event,
        rawBody: input.rawBody,
        providerSubscriptionId: event.payload.subscription?.entity.id ?? null,
        providerPaymentId:
          event.payload.payment?.entity.id ?? event.payload.refund?.entity.payment_id ?? null,
        providerCreatedAt: new Date(event.created_at * 1000),
      })
      .onConflictDoNothing({ target: webhookEvents.eventId })
      .returning({ eventId: webhookEvents.eventId });
    if (inserted.length === 0) return false;
    // Deduplicated on the signed body too: the event-id header is not signed, so the same signed
    // delivery sent again under new ids (a replay) must not be applied again.
    const fresh = await enqueue(
      tx,
      processWebhookJob,
      { eventId },
      { dedupeKey: `webhook-body:${createHash("sha256").update(input.rawBody).digest("hex")}` },
    );
    if (!fresh) {
      await tx
        .update(webhookEvents)
        .set({ processedAt: new Date(), lastError: "the same signed body arrived before" })
        .where(eq(webhookEvents.eventId, eventId));
      return false;
    }
    return true;
  });
  return { status: 200, outcome: stored ? "stored" : "duplicate", eventId };
}

/**
 * Applies a stored event. Runs once per event however often it is called (the processed mark is
 * taken in the same transaction as the changes); `replay` (admin) applies it again on purpose.
 */
export async function processWebhookEvent(
  eventId: string,
  options: { database?: Database; client?: RazorpayClient; replay?: boolean } = {},
): Promise<"processed" | "already-processed"> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const [row] = await database
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.eventId, eventId));
  if (!row) throw new PermanentJobError(`webhook event ${eventId} is not stored`);
  if (row.processedAt && !options.replay) return "already-processed";
  const event = webhookEventSchema.parse(JSON.parse(row.rawBody));

  // The current state, read before the transaction (no network call while it holds locks).
  const snapshot = event.payload.subscription?.entity;
  let current = snapshot;
  let readAt = new Date(event.created_at * 1000);
  if (snapshot) {
    const fetchedAt = new Date();
    try {
      current = await client.fetchSubscription(snapshot.id);
      readAt = fetchedAt;
    } catch (error) {
      // Not ours under these keys (404): fall back to the event's own snapshot and time.
      if (!(error instanceof RazorpayError && error.status === 404)) throw error;
    }
  }

  // A dispute as Razorpay reports it now: a late `created` must not reopen a decided one.
  const disputeSnapshot = event.payload.dispute?.entity;
  let dispute = disputeSnapshot;
  if (disputeSnapshot) {
    try {
      dispute = await client.fetchDispute(disputeSnapshot.id);
    } catch (error) {
      if (!(error instanceof RazorpayError && error.status === 404)) throw error;
    }
  }

  const billed = await billedPeriod(event, client);
  // A payment-only event (payment.failed) names no subscription; its Razorpay invoice does
  // (issue 33: a failed renewal was stored unlinked, missing from the customer's payments).
  const billedTo = snapshot ? null : await invoiceSubscriptionOf(event, client);

  return database.transaction(async (tx) => {
    const marked = await tx
      .update(webhookEvents)
      .set({
        processedAt: new Date(),
        processCount: sql`${webhookEvents.processCount} + 1`,
        lastError: null,
      })
      .where(
        options.replay
          ? eq(webhookEvents.eventId, eventId)
          : sql`${webhookEvents.eventId} = ${eventId} and ${webhookEvents.processedAt} is null`,
      )
      .returning({ eventId: webhookEvents.eventId });
    if (marked.length === 0) return "already-processed";

    const subscription = current ? await applyAndFollowUp(tx, current, readAt) : null;
    const paymentEntity = event.payload.payment?.entity;
    let newPayment = false;
    // The subscription a payment belongs to: the event's, or the one its Razorpay invoice bills
    // (an upfront amount's payment comes with its invoice, not with a subscription).
    const owner = paymentEntity
      ? (subscription ?? (billedTo ? await subscriptionByProviderId(billedTo, tx) : null))
      : null;
    // A dispute's event carries its payment as it is now: not a new charge to record.
    if (paymentEntity && !dispute) {
      const periodEnd =
        paymentEntity.status === "captured" ? (billed?.end ?? owner?.currentEnd ?? null) : null;
      newPayment = await recordPayment(tx, paymentEntity, owner, periodEnd);
    }
    if (owner && paymentEntity?.status === "captured" && !dispute) {
      // Seats added mid-cycle (decision 0054): the upfront amount pays for them until the
      // current cycle ends, and its invoice says so.
      const topup = owner.teamId ? await seatTopupPaidBy(tx, owner.id, paymentEntity.amount) : null;
      const paid = {
        paymentId: paymentEntity.id,
        amountPaise: paymentEntity.amount,
        paidAt: new Date(paymentEntity.created_at * 1000),
        userId: owner.userId,
        planId: owner.planId,
        // The period this payment paid for, not whatever period is current when it is processed
        // (a charge processed late, after retries or a stall, belongs to its own period).
        periodStart: topup?.periodStart ?? billed?.start ?? owner.currentStart,
        periodEnd: topup?.periodEnd ?? billed?.end ?? owner.currentEnd,
        team: owner.teamId
          ? { id: owner.teamId, seats: topup?.seatsAdded ?? owner.seats, added: topup !== null }
          : null,
      };
      // Rupees make a GST tax invoice; a payment abroad an export invoice (issue 56). The
      // payment's own currency decides, as Razorpay charged it.
      const currency = isCurrency(paymentEntity.currency) ? paymentEntity.currency : owner.currency;
      if (currency === "INR")
        await issueInvoiceForPayment(tx, {
          ...paid,
          couponCode: await couponCodeOf(tx, owner.couponId),
        });
      else
        await issueExportInvoiceForPayment(tx, {
          ...paid,
          currency,
          inrValuePaise: inrValueOf(paymentEntity),
        });
      await creditRefundsOf(tx, paymentEntity.id);
      // The seats' upfront amount is a payment like a renewal: its receipt and invoice are
      // mailed (issue 54: it was charged without a word). The key is the charge's own, so a
      // `subscription.charged` for the same payment mails nothing more.
      if (topup && newPayment)
        await queueBillingMail(tx, "payment-received", owner.id, `payment:${paymentEntity.id}`, {
          paymentId: paymentEntity.id,
        });
      // Someone referred paying for the first time: their referrer's reward waits for the window.
      if (newPayment && owner.userId)
        await noteReferredPayment(tx, owner.userId, {
          providerPaymentId: paymentEntity.id,
          paidAt: new Date(paymentEntity.created_at * 1000),
        });
    }
    const refund = event.payload.refund?.entity;
    // Made here or in Razorpay's dashboard: recorded, credited and mailed once either way.
    if (refund) await settleRefund(tx, refund);
    if (dispute) await applyDispute(tx, dispute);
    if (subscription && current)
      await queueMailFor(event, current, subscription, paymentEntity?.id ?? null, newPayment, tx);
    return "processed";
  });
}

/**
 * The mail an event calls for, chosen from the state Razorpay reports now (`current`, fetched while
 * processing), not from the event's name: a late or replayed `subscription.pending` for a
 * subscription that is active again mails nothing. Each mail's dedupe key names the state it
 * reports, so the same failure or halt is mailed once however many events describe it.
 */
/** The Razorpay subscription a payment's invoice bills, when the event names none itself. */
async function invoiceSubscriptionOf(
  event: RazorpayWebhookEvent,
  client: RazorpayClient,
): Promise<string | null> {
  const payment = event.payload.payment?.entity;
  if (!payment?.invoice_id) return null;
  const carried = event.payload.invoice?.entity;
  if (carried?.id === payment.invoice_id) return carried.subscription_id ?? null;
  try {
    return (await client.fetchInvoice(payment.invoice_id)).subscription_id ?? null;
  } catch (error) {
    if (error instanceof RazorpayError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The service period a captured payment paid for: its Razorpay invoice's billing_start and
 * billing_end (from the event when it carries the invoice, else fetched), or null when Razorpay
 * has no invoice for it (then the subscription's period at processing time is the best there is).
 */
async function billedPeriod(
  event: RazorpayWebhookEvent,
  client: RazorpayClient,
): Promise<{ start: Date; end: Date } | null> {
  const payment = event.payload.payment?.entity;
  if (!payment || payment.status !== "captured") return null;
  let invoice: RazorpayInvoice | null = null;
  const carried = event.payload.invoice?.entity;
  if (carried && (carried.payment_id === payment.id || carried.id === payment.invoice_id))
    invoice = carried;
  else if (payment.invoice_id) {
    try {
      invoice = await client.fetchInvoice(payment.invoice_id);
    } catch (error) {
      if (!(error instanceof RazorpayError && error.status === 404)) throw error;
    }
  }
  if (!invoice?.billing_start || !invoice.billing_end) return null;
  return {
    start: new Date(invoice.billing_start * 1000),
    end: new Date(invoice.billing_end * 1000),
  };
}

async function queueMailFor(
  event: RazorpayWebhookEvent,
  current: RazorpaySubscription,
  subscription: { id: string },
  paymentId: string | null,
  newPayment: boolean,
  tx: Parameters<typeof queueBillingMail>[0],
): Promise<void> {
  if (event.event === "subscription.charged") {
    if (paymentId && newPayment)
      await queueBillingMail(tx, "payment-received", subscription.id, `payment:${paymentId}`, {
        paymentId,
      });
    return;
  }
  const dunning = STATUS_RULES[current.status].dunning;
  if (dunning === "pending") {
    const attempt = `${current.charge_at ?? 0}:${current.auth_attempts ?? 0}`;
    await queueBillingMail(tx, "payment-failed", subscription.id, `failed:${attempt}`);
    const customer = await subscriptionCustomer(tx, subscription.id);
    if (customer)
      await raiseAlert(tx, {
        kind: "payment-failed",
        key: `payment-failed:${current.id}:${attempt}`,
        summary: `A renewal of ${customer.email} failed (${current.id}, ${countOf(current.auth_attempts ?? 1, "failed attempt")}); Razorpay retries it.`,
        path: customer.path,
      });
  } else if (current.status === STATUS.paused) {
    // Paused here or in the customer's UPI app: one mail per pause, keyed as the site's is.
    await queueBillingMail(tx, "paused", subscription.id, `paused:${current.paused_at ?? 0}`);
  } else if (dunning === "halted") {
    await queueBillingMail(tx, "halted", subscription.id, `halted:${current.paid_count}`);
    const customer = await subscriptionCustomer(tx, subscription.id);
    if (customer)
      await raiseAlert(tx, {
        kind: "subscription-halted",
        key: `subscription-halted:${current.id}:${current.paid_count}`,
        summary: `The subscription of ${customer.email} halted (${current.id}): Razorpay's retries ran out and Pro has ended.`,
        path: customer.path,
      });
  }
}

/** Applies a stored Razorpay event (money lane): fetches the provider's state, then records it. */
export const processWebhookJob = defineJob({
  name: PROCESS_WEBHOOK_JOB,
  lane: "money",
  payload: z.object({ eventId: z.string().regex(EVENT_ID) }),
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler({ eventId }) {
    await processWebhookEvent(eventId);
  },
});
