/** Payments and refunds as Razorpay reported them; the Razorpay ids keep each row unique. */
import { desc, eq, sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { payments, type PaymentRow, refunds, type SubscriptionRow } from "../db/schema";
import type { Executor } from "../jobs/queue.server";
import type { RazorpayPayment, RazorpayRefund } from "./razorpay/types";

/**
 * Stores a payment, or brings a stored one up to date (status, refunds). True when it is new:
 * the caller sends "payment received" only then.
 */
export async function recordPayment(
  executor: Executor,
  entity: RazorpayPayment,
  subscription: Pick<SubscriptionRow, "id" | "userId"> | null,
): Promise<boolean> {
  const inserted = await executor
    .insert(payments)
    .values({
      providerPaymentId: entity.id,
      subscriptionId: subscription?.id ?? null,
      userId: subscription?.userId ?? null,
      amountPaise: entity.amount,
      currency: entity.currency,
      status: entity.status,
      method: entity.method,
      cardNetwork: entity.card?.network ?? null,
      cardLast4: entity.card?.last4 ?? null,
      vpa: entity.vpa ?? null,
      amountRefundedPaise: entity.amount_refunded,
      providerInvoiceId: entity.invoice_id ?? null,
      errorDescription: entity.error_description ?? null,
      paidAt: new Date(entity.created_at * 1000),
    })
    .onConflictDoNothing({ target: payments.providerPaymentId })
    .returning({ id: payments.providerPaymentId });
  if (inserted.length > 0) return true;
  // Refunds only grow; a late, older event never lowers the refunded amount.
  await executor
    .update(payments)
    .set({
      status: entity.status,
      amountRefundedPaise: sql`greatest(${payments.amountRefundedPaise}, ${entity.amount_refunded})`,
      ...(subscription
        ? {
            subscriptionId: sql`coalesce(${payments.subscriptionId}, ${subscription.id}::uuid)`,
            userId: sql`coalesce(${payments.userId}, ${subscription.userId})`,
          }
        : {}),
    })
    .where(eq(payments.providerPaymentId, entity.id));
  return false;
}

export async function recordRefund(
  executor: Executor,
  entity: RazorpayRefund,
  reason: string | null = null,
): Promise<void> {
  await executor
    .insert(refunds)
    .values({
      providerRefundId: entity.id,
      providerPaymentId: entity.payment_id,
      amountPaise: entity.amount,
      status: entity.status,
      reason,
    })
    .onConflictDoUpdate({
      target: refunds.providerRefundId,
      set: { status: entity.status, ...(reason ? { reason } : {}) },
    });
}

export async function paymentsOfSubscription(
  subscriptionId: string,
  database: Database = defaultDb(),
): Promise<PaymentRow[]> {
  return database
    .select()
    .from(payments)
    .where(eq(payments.subscriptionId, subscriptionId))
    .orderBy(desc(payments.paidAt));
}

export async function paymentsOfUser(
  userId: string,
  database: Database = defaultDb(),
): Promise<PaymentRow[]> {
  return database
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.paidAt));
}

export interface PaymentMethod {
  method: string;
  /** "Visa •••• 4366" or "UPI success@razorpay". */
  label: string;
}

/** How a payment was made, in words. */
export function paymentMethodOf(
  payment: Pick<PaymentRow, "method" | "cardNetwork" | "cardLast4" | "vpa">,
): PaymentMethod {
  if (payment.method === "card" && payment.cardLast4)
    return { method: "card", label: `${payment.cardNetwork ?? "Card"} •••• ${payment.cardLast4}` };
  if (payment.method === "upi")
    return { method: "upi", label: payment.vpa ? `UPI ${payment.vpa}` : "UPI" };
  return { method: payment.method, label: payment.method };
}
