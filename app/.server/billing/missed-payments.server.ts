/**
 * Payments whose webhook never came (issue 53, finding 15). A resync used to read only the
 * subscription, so a buyer whose `subscription.charged` was lost (the site killed as it arrived,
 * a webhook URL down past Razorpay's retries) was Pro with no payment, invoice, receipt or
 * refund offer. The resync now also reads the subscription's invoices from Razorpay, and each
 * paid one whose payment is not stored here is recorded through the webhook's own code path: a
 * `subscription.charged` event built from what Razorpay answers, stored under an id named for
 * the payment (`resync:pay_…`, so two resyncs store it once) and processed like a delivery.
 * Recording is idempotent by Razorpay payment id, so the real webhook arriving later (or a
 * second resync) adds nothing: no second payment, invoice or mail.
 */
import { inArray } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { payments, type SubscriptionRow, webhookEventIds, webhookEvents } from "../db/schema";
import { razorpay } from "./provider.server";
import type { RazorpayClient } from "./razorpay/client";
import type { RazorpaySubscription } from "./razorpay/types";
import { resyncFromProvider } from "./resync.server";
import { processWebhookEvent } from "./webhooks.server";

/** The stored event id of a payment a resync found: one per payment, whoever finds it. */
export function resyncEventId(providerPaymentId: string): string {
  return `resync:${providerPaymentId}`;
}

/**
 * Reads the subscription and its payments from Razorpay and records what is missing here.
 * Returns the subscription as stored (null when it is not ours).
 */
export async function resyncWithPayments(
  providerSubscriptionId: string,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<SubscriptionRow | null> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const row = await resyncFromProvider(providerSubscriptionId, { database, client });
  if (!row) return null;
  const recorded = await recordMissedPayments(providerSubscriptionId, { database, client });
  return recorded > 0
    ? await resyncFromProvider(providerSubscriptionId, { database, client })
    : row;
}

/** Records the subscription's paid invoices whose payment is not stored; returns how many. */
export async function recordMissedPayments(
  providerSubscriptionId: string,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<number> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const invoices = (await client.listInvoices(providerSubscriptionId)).filter(
    (invoice) => invoice.status === "paid" && invoice.payment_id,
  );
  if (invoices.length === 0) return 0;
  const ids = invoices.map((invoice) => invoice.payment_id!);
  const stored = new Set(
    (
      await database
        .select({ id: payments.providerPaymentId })
        .from(payments)
        .where(inArray(payments.providerPaymentId, ids))
    ).map((row) => row.id),
  );
  let recorded = 0;
  let subscription: RazorpaySubscription | null = null;
  for (const invoice of invoices) {
    const paymentId = invoice.payment_id!;
    if (stored.has(paymentId)) continue;
    const payment = await client.fetchPayment(paymentId);
    if (payment.status !== "captured" && payment.status !== "refunded") continue;
    subscription ??= await client.fetchSubscription(providerSubscriptionId);
    // The event Razorpay would have delivered for this charge, with what it answers now.
    const body = JSON.stringify({
      entity: "event",
      event: "subscription.charged",
      contains: ["subscription", "payment", "invoice"],
      payload: {
        subscription: { entity: subscription },
        payment: { entity: payment },
        invoice: { entity: invoice },
      },
      created_at: payment.created_at,
    });
    const eventId = resyncEventId(paymentId);
    await database.transaction(async (tx) => {
      const gate = await tx
        .insert(webhookEventIds)
        .values({ eventId })
        .onConflictDoNothing({ target: webhookEventIds.eventId })
        .returning({ eventId: webhookEventIds.eventId });
      if (gate.length === 0) return;
      await tx
        .insert(webhookEvents)
        .values({
          eventId,
          event: "subscription.charged",
          rawBody: body,
          providerSubscriptionId,
          providerPaymentId: paymentId,
          providerCreatedAt: new Date(payment.created_at * 1000),
        })
        .onConflictDoNothing({ target: webhookEvents.eventId });
    });
    // Also when an earlier resync stored it and stopped before processing it: processing is
    // once per event (its processed mark is taken in the same transaction as the changes).
    if ((await processWebhookEvent(eventId, { database, client })) === "processed") recorded += 1;
  }
  return recorded;
}
