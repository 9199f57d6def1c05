/** Payments and refunds as Razorpay reported them; the Razorpay ids keep each row unique. */
import { desc, eq, type SQL, sql } from "drizzle-orm";
import { type Database, db as defaultDb, type Executor } from "../db";
import { payments, type PaymentRow, refunds, type SubscriptionRow } from "../db/schema";
import type { RazorpayPayment, RazorpayRefund } from "./razorpay/types";
import { type Currency, isCurrency } from "~/lib/money";

/**
 * How far along a payment is. A status moves only to a higher rank: created → authorized →
 * captured → refunded, or created/authorized → failed; a failed payment stays failed, so a late
 * or replayed older snapshot never moves a payment back (refunded never reads captured again).
 */
export const PAYMENT_STATUS_RANK = {
  created: 0,
  authorized: 1,
  captured: 2,
  failed: 2,
  refunded: 3,
} as const satisfies Record<RazorpayPayment["status"], number>;

/** The rank of a status column or value in SQL; a status we do not know ranks lowest. */
function statusRank(status: SQL): SQL {
  const cases = Object.entries(PAYMENT_STATUS_RANK).map(
    ([name, rank]) => sql`when ${name} then ${sql.raw(String(rank))}`,
  );
  return sql`(case ${status} ${sql.join(cases, sql` `)} else -1 end)`;
}

/**
 * The status to store when `incoming` is reported for a stored payment: decided in the UPDATE
 * itself, on the row as it is when the row lock is held, so two writers racing obey it too.
 */
function forwardStatus(incoming: RazorpayPayment["status"]): SQL {
  return sql`case
    when ${payments.status} = 'failed' then ${payments.status}
    when ${statusRank(sql`${incoming}::text`)} > ${statusRank(sql`${payments.status}`)} then ${incoming}::text
    else ${payments.status}
  end`;
}

/**
 * A payment's worth in rupees as Razorpay reports it: its amount when it is in rupees, else its
 * `base_amount` when Razorpay gives one in rupees (it converts at the moment of payment and
 * settles that); null when it reports no conversion.
 */
export function inrValueOf(
  entity: Pick<RazorpayPayment, "amount" | "currency" | "base_amount" | "base_currency">,
): number | null {
  if (entity.currency === "INR") return entity.amount;
  return entity.base_currency === "INR" && entity.base_amount !== undefined
    ? entity.base_amount
    : null;
}

/**
 * A payment's currency, one this site sells in: its plans are the only ones charged on the
 * account. Another is an error the webhook's record shows the operator, never a guess.
 */
function currencyOf(entity: Pick<RazorpayPayment, "id" | "currency">): Currency {
  if (!isCurrency(entity.currency))
    throw new Error(
      `payment ${entity.id} is in ${entity.currency}, a currency this site does not sell in`,
    );
  return entity.currency;
}

/**
 * Stores a payment, or brings a stored one up to date (status, only forward; refunds; the period
 * it paid for, once known). True when it is new: the caller sends "payment received" only then.
 */
export async function recordPayment(
  executor: Executor,
  entity: RazorpayPayment,
  subscription: Pick<SubscriptionRow, "id" | "userId"> | null,
  periodEnd: Date | null = null,
): Promise<boolean> {
  const inserted = await executor
    .insert(payments)
    .values({
      providerPaymentId: entity.id,
      subscriptionId: subscription?.id ?? null,
      userId: subscription?.userId ?? null,
      amountPaise: entity.amount,
      currency: currencyOf(entity),
      inrValuePaise: inrValueOf(entity),
      status: entity.status,
      method: entity.method,
      cardNetwork: entity.card?.network ?? null,
      cardLast4: entity.card?.last4 ?? null,
      vpa: entity.vpa ?? null,
      amountRefundedPaise: entity.amount_refunded,
      providerInvoiceId: entity.invoice_id ?? null,
      periodEnd,
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
      status: forwardStatus(entity.status),
      amountRefundedPaise: sql`greatest(${payments.amountRefundedPaise}, ${entity.amount_refunded})`,
      // The conversion, once reported, is the payment's and stays; a later snapshot may bring it.
      inrValuePaise: sql`coalesce(${payments.inrValuePaise}, ${inrValueOf(entity)}::integer)`,
      ...(periodEnd
        ? {
            periodEnd: sql`coalesce(${payments.periodEnd}, ${periodEnd.toISOString()}::timestamptz)`,
          }
        : {}),
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
      currency: currencyOf({ id: entity.payment_id, currency: entity.currency }),
      status: entity.status,
      reason,
      arn: entity.acquirer_data?.arn ?? null,
    })
    .onConflictDoUpdate({
      target: refunds.providerRefundId,
      set: {
        status: entity.status,
        ...(reason ? { reason } : {}),
        // Razorpay reports the bank reference later (refund.arn_updated); an older report without
        // it never takes it away.
        ...(entity.acquirer_data?.arn ? { arn: entity.acquirer_data.arn } : {}),
      },
    });
}

/** The currency a recorded payment was made in; rupees for one not recorded. */
export async function currencyOfPayment(
  paymentId: string,
  database: Executor = defaultDb(),
): Promise<Currency> {
  const [row] = await database
    .select({ currency: payments.currency })
    .from(payments)
    .where(eq(payments.providerPaymentId, paymentId));
  return row?.currency ?? "INR";
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
  /** For the operator: "Visa •••• 4366" or "UPI success@razorpay". */
  label: string;
  /**
   * For the customer's own pages (which may be on a shared screen): "Visa •••• 4366" or
   * "UPI AutoPay su•••@razorpay", the UPI handle masked like the card number.
   */
  customerLabel: string;
}

/** A UPI address with its name part masked: "success@razorpay" → "su•••@razorpay". */
export function maskVpa(vpa: string): string {
  const at = vpa.lastIndexOf("@");
  if (at < 0) return `${vpa.slice(0, 2)}•••`;
  return `${vpa.slice(0, Math.min(2, at))}•••${vpa.slice(at)}`;
}

/** How a payment was made, in words. */
export function paymentMethodOf(
  payment: Pick<PaymentRow, "method" | "cardNetwork" | "cardLast4" | "vpa">,
): PaymentMethod {
  if (payment.method === "card" && payment.cardLast4) {
    const label = `${payment.cardNetwork ?? "Card"} •••• ${payment.cardLast4}`;
    return { method: "card", label, customerLabel: label };
  }
  if (payment.method === "upi")
    return {
      method: "upi",
      label: payment.vpa ? `UPI ${payment.vpa}` : "UPI",
      // A subscription paid by UPI is always an AutoPay mandate.
      customerLabel: payment.vpa ? `UPI AutoPay ${maskVpa(payment.vpa)}` : "UPI AutoPay",
    };
  return { method: payment.method, label: payment.method, customerLabel: payment.method };
}
