/**
 * The ledger: payment and invoice entities for charges, and refunds against payments.
 */
import type {
  InvoiceEntity,
  Method,
  PaymentEntity,
  RefundEntity,
  SubscriptionRecord,
} from "./entities";
import { conversionFields } from "./currencies";
import { offerPrice } from "./offers";
import { emit, getPlan, type Tx } from "./state";
import { badRequest, inNotes, newArn, newId, notFound, outNotes, type Notes } from "./util";

export const DEFAULT_VPA = "success@razorpay";

export interface PaymentDraft {
  amount: number;
  method: Method;
  vpa: string | null;
  outcome: "success" | "failure";
  invoiceId: string | null;
}

export function newPayment(tx: Tx, record: SubscriptionRecord, draft: PaymentDraft): PaymentEntity {
  const notes = inNotes(record.entity.notes);
  const ok = draft.outcome === "success";
  const cardId = draft.method === "card" ? newId("card") : null;
  // A charge is in its plan's currency; its fee (2 %) in paise, as Razorpay charges fees in rupees.
  const currency = getPlan(tx.state, record.entity.plan_id).item.currency;
  const conversion = conversionFields(draft.amount, currency);
  const fee = ok ? Math.round(((conversion.base_amount ?? draft.amount) * 2) / 100) : null;
  const international = cardId !== null && (record.internationalCard ?? currency !== "INR");
  const payment: PaymentEntity = {
    id: newId("pay"),
    entity: "payment",
    amount: draft.amount,
    currency,
    status: ok ? "captured" : "failed",
    order_id: null,
    invoice_id: draft.invoiceId,
    international,
    method: draft.method,
    amount_refunded: 0,
    refund_status: null,
    captured: ok,
    description: null,
    card_id: cardId,
    card: cardId
      ? international
        ? {
            id: cardId,
            entity: "card",
            last4: "1881",
            network: "Visa",
            type: "credit",
            international,
          }
        : {
            id: cardId,
            entity: "card",
            last4: "4366",
            network: "Visa",
            type: "credit",
            international,
          }
      : null,
    bank: null,
    wallet: null,
    vpa: draft.method === "upi" ? (draft.vpa ?? DEFAULT_VPA) : null,
    email: notes.email === undefined ? null : String(notes.email),
    contact: notes.contact === undefined ? null : String(notes.contact),
    customer_id: record.entity.customer_id,
    token_id: null,
    notes: [],
    fee,
    tax: fee === null ? null : Math.round((fee * 18) / 100),
    error_code: ok ? null : "BAD_REQUEST_ERROR",
    error_description: ok ? null : "Payment failed",
    error_source: ok ? null : "bank",
    error_step: ok ? null : "payment_authorization",
    error_reason: ok ? null : "payment_failed",
    created_at: tx.now,
    ...conversion,
  };
  tx.state.payments[payment.id] = { entity: payment, subscriptionId: record.entity.id };
  return payment;
}

/** What the next charge comes to: the plan's amount × quantity, less the offer while it applies. */
export function chargeAmount(tx: Tx, record: SubscriptionRecord): number {
  const sub = record.entity;
  return offerPrice(tx.state, record, getPlan(tx.state, sub.plan_id).item.amount * sub.quantity);
}

/** The invoice of one cycle: a failed charge leaves it `issued`, a later success pays it. */
export function cycleInvoice(
  tx: Tx,
  record: SubscriptionRecord,
  start: number,
  end: number,
): InvoiceEntity {
  const sub = record.entity;
  const existing = Object.values(tx.state.invoices).find(
    (inv) =>
      inv.subscription_id === sub.id && inv.status === "issued" && inv.billing_start === start,
  );
  if (existing) return existing;
  const plan = getPlan(tx.state, sub.plan_id);
  const amount = chargeAmount(tx, record);
  return newInvoice(tx, record, {
    amount,
    billingStart: start,
    billingEnd: end,
    lines: [
      {
        item_id: plan.item.id,
        name: plan.item.name,
        description: plan.item.description,
        amount: plan.item.amount,
        unit_amount: plan.item.amount,
        gross_amount: plan.item.amount * sub.quantity,
        net_amount: amount,
        type: "plan",
        quantity: sub.quantity,
      },
    ],
  });
}

type InvoiceLine = InvoiceEntity["line_items"][number];

/** A subscription's invoice, `issued` (a charge then pays it) and stored. */
export function newInvoice(
  tx: Tx,
  record: SubscriptionRecord,
  fields: {
    amount: number;
    billingStart: number | null;
    billingEnd: number | null;
    lines: Omit<InvoiceLine, "id" | "tax_amount" | "currency">[];
  },
): InvoiceEntity {
  const sub = record.entity;
  const currency = getPlan(tx.state, sub.plan_id).item.currency;
  const invoice: InvoiceEntity = {
    id: newId("inv"),
    entity: "invoice",
    type: "invoice",
    invoice_number: null,
    customer_id: sub.customer_id,
    order_id: null,
    subscription_id: sub.id,
    payment_id: "",
    status: "issued",
    issued_at: tx.now,
    paid_at: null,
    amount: fields.amount,
    amount_paid: 0,
    amount_due: fields.amount,
    currency,
    description: null,
    notes: [],
    billing_start: fields.billingStart,
    billing_end: fields.billingEnd,
    line_items: fields.lines.map((line) => ({
      id: newId("li"),
      ...line,
      tax_amount: 0,
      currency,
    })),
    date: tx.now,
    created_at: tx.now,
  };
  tx.state.invoices[invoice.id] = invoice;
  return invoice;
}

export interface RefundInput {
  amount?: number | undefined;
  speed?: "normal" | "optimum" | undefined;
  notes?: Notes | undefined;
  receipt?: string | undefined;
}

/**
 * A refund request with Razorpay's `X-Refund-Idempotency` key: the same key with the same request
 * answers with the refund it made the first time; the same key with another request is refused.
 */
export function refundPaymentOnce(
  tx: Tx,
  paymentId: string,
  input: RefundInput,
  key: string | null,
): RefundEntity {
  if (key === null) return refundPayment(tx, paymentId, input);
  if (!/^[A-Za-z0-9_-]{10,}$/.test(key))
    throw badRequest(
      "The idempotency key must be at least 10 characters: letters, digits, - and _",
    );
  const request = JSON.stringify({ paymentId, ...input });
  const keys = (tx.state.refundKeys ??= {});
  const seen = keys[key];
  if (seen) {
    if (seen.request !== request)
      throw badRequest("The idempotency key was used with a different request");
    const refund = tx.state.refunds[seen.refundId];
    if (refund) return refund;
  }
  const refund = refundPayment(tx, paymentId, input);
  keys[key] = { request, refundId: refund.id };
  return refund;
}

export function refundPayment(tx: Tx, paymentId: string, input: RefundInput): RefundEntity {
  const record = tx.state.payments[paymentId];
  if (!record) throw notFound();
  const payment = record.entity;
  if (payment.status === "refunded")
    throw badRequest("The payment has been fully refunded already");
  if (payment.status !== "captured")
    throw badRequest("Only captured payments can be refunded", "payment_id");
  const left = payment.amount - payment.amount_refunded;
  const amount = input.amount ?? left;
  if (amount > left)
    throw badRequest("The refund amount provided is greater than amount captured", "amount");
  const refund: RefundEntity = {
    id: newId("rfnd"),
    entity: "refund",
    amount,
    // In the payment's currency; its rupee value at the payment's own rate.
    currency: payment.currency,
    ...(payment.base_amount === undefined
      ? {}
      : {
          base_amount: Math.round((amount * payment.base_amount) / payment.amount),
          base_currency: "INR" as const,
        }),
    payment_id: payment.id,
    notes: outNotes(input.notes),
    receipt: input.receipt ?? null,
    // Processed at once here, so the bank's reference is there at once (Razorpay fills it in
    // when the refund is processed, sometimes days later, with refund.arn_updated).
    acquirer_data: { arn: newArn() },
    created_at: tx.now,
    batch_id: null,
    status: "processed",
    speed_processed: "normal",
    speed_requested: input.speed ?? "normal",
  };
  tx.state.refunds[refund.id] = refund;
  payment.amount_refunded += amount;
  const full = payment.amount_refunded >= payment.amount;
  payment.refund_status = full ? "full" : "partial";
  if (full) payment.status = "refunded";
  emit(tx, "refund.created", { refund, payment });
  emit(tx, "refund.processed", { refund, payment });
  return refund;
}
