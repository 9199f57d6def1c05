/**
 * The parts of Razorpay's entities this product reads, as zod schemas: what the REST API returns
 * and what webhooks carry. Unknown fields pass through untouched; amounts are integer paise and
 * times Unix seconds, exactly as Razorpay sends them.
 */
import { z } from "zod";
// Defined once, with what each means, in the state module (issue 54).
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "../../../lib/subscription-state";
import { DISPUTE_STATUSES } from "../../../lib/disputes";

const unixSeconds = z.number().int().nonnegative();
const paise = z.number().int().nonnegative();
/** Razorpay sends empty notes as `[]`, filled ones as an object. */
export const notesSchema = z
  .union([z.record(z.string(), z.union([z.string(), z.number()])), z.array(z.unknown()).max(0)])
  .transform((notes) =>
    Array.isArray(notes)
      ? ({} as Record<string, string>)
      : Object.fromEntries(Object.entries(notes).map(([key, value]) => [key, String(value)])),
  );

export { SUBSCRIPTION_STATUSES, type SubscriptionStatus };

export const planSchema = z.looseObject({
  id: z.string().startsWith("plan_"),
  entity: z.literal("plan"),
  period: z.enum(["daily", "weekly", "monthly", "quarterly", "yearly"]),
  interval: z.number().int().positive(),
  item: z.looseObject({
    name: z.string(),
    amount: paise,
    currency: z.string(),
    description: z.string().nullable().optional(),
  }),
  notes: notesSchema.default({}),
  created_at: unixSeconds,
});
export type RazorpayPlan = z.infer<typeof planSchema>;

export const subscriptionSchema = z.looseObject({
  id: z.string().startsWith("sub_"),
  entity: z.literal("subscription"),
  plan_id: z.string(),
  customer_id: z.string().nullable().optional(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  current_start: unixSeconds.nullable(),
  current_end: unixSeconds.nullable(),
  ended_at: unixSeconds.nullable().optional(),
  quantity: z.number().int().optional(),
  notes: notesSchema.default({}),
  charge_at: unixSeconds.nullable().optional(),
  start_at: unixSeconds.nullable().optional(),
  end_at: unixSeconds.nullable().optional(),
  auth_attempts: z.number().int().optional(),
  total_count: z.number().int(),
  paid_count: z.number().int(),
  remaining_count: z.number().int().nullable().optional(),
  customer_notify: z.union([z.boolean(), z.number()]).optional(),
  created_at: unixSeconds,
  expire_by: unixSeconds.nullable().optional(),
  short_url: z.string().nullable().optional(),
  has_scheduled_changes: z.boolean().optional(),
  change_scheduled_at: unixSeconds.nullable().optional(),
  /** While paused: when, and who paused it (a customer can pause a UPI mandate in their app). */
  paused_at: unixSeconds.nullable().optional(),
  pause_initiated_by: z.string().nullable().optional(),
  /** The offer linked when it was created (a coupon's discount), null without one. */
  offer_id: z.string().nullable().optional(),
  /** How it is paid once authorised: "card", "upi" (AutoPay) or "emandate". */
  payment_method: z.string().nullable().optional(),
});
export type RazorpaySubscription = z.infer<typeof subscriptionSchema>;

export const paymentSchema = z.looseObject({
  id: z.string().startsWith("pay_"),
  entity: z.literal("payment"),
  amount: paise,
  currency: z.string(),
  /**
   * Only when `currency` is not INR: the payment's value in paise at the rate Razorpay converted
   * it at, the rupees it settles (razorpay.com/docs/payments/payments/currency-conversion).
   */
  base_amount: paise.optional(),
  base_currency: z.string().optional(),
  /** Whether the card was issued outside India. */
  international: z.boolean().optional(),
  status: z.enum(["created", "authorized", "captured", "refunded", "failed"]),
  order_id: z.string().nullable().optional(),
  invoice_id: z.string().nullable().optional(),
  method: z.string(),
  amount_refunded: paise.default(0),
  refund_status: z.string().nullable().optional(),
  captured: z.boolean().optional(),
  description: z.string().nullable().optional(),
  card_id: z.string().nullable().optional(),
  card: z
    .looseObject({
      id: z.string().optional(),
      last4: z.string(),
      network: z.string(),
      type: z.string().optional(),
    })
    .nullable()
    .optional(),
  vpa: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  contact: z.string().nullable().optional(),
  customer_id: z.string().nullable().optional(),
  token_id: z.string().nullable().optional(),
  notes: notesSchema.default({}),
  fee: z.number().int().nullable().optional(),
  tax: z.number().int().nullable().optional(),
  error_code: z.string().nullable().optional(),
  error_description: z.string().nullable().optional(),
  created_at: unixSeconds,
});
export type RazorpayPayment = z.infer<typeof paymentSchema>;

export const refundSchema = z.looseObject({
  id: z.string().startsWith("rfnd_"),
  entity: z.literal("refund"),
  amount: paise,
  currency: z.string(),
  base_amount: paise.optional(),
  base_currency: z.string().optional(),
  payment_id: z.string(),
  notes: notesSchema.default({}),
  status: z.enum(["pending", "processed", "failed"]),
  speed_requested: z.string().optional(),
  /** The bank's reference (ARN or RRN), filled in once the refund is processed. */
  acquirer_data: z.looseObject({ arn: z.string().nullable().optional() }).optional(),
  created_at: unixSeconds,
});
export type RazorpayRefund = z.infer<typeof refundSchema>;

export const invoiceSchema = z.looseObject({
  id: z.string().startsWith("inv_"),
  entity: z.literal("invoice"),
  subscription_id: z.string().nullable().optional(),
  payment_id: z.string().nullable().optional(),
  status: z.string(),
  amount: paise,
  amount_paid: paise.optional(),
  currency: z.string(),
  billing_start: unixSeconds.nullable().optional(),
  billing_end: unixSeconds.nullable().optional(),
  invoice_number: z.string().nullable().optional(),
  created_at: unixSeconds,
});
export type RazorpayInvoice = z.infer<typeof invoiceSchema>;

/** A chargeback (or retrieval, fraud report, arbitration) raised against a payment by its bank. */
export const disputeSchema = z.looseObject({
  id: z.string().startsWith("disp_"),
  entity: z.literal("dispute"),
  payment_id: z.string(),
  amount: paise,
  currency: z.string(),
  amount_deducted: paise.default(0),
  reason_code: z.string().nullable().optional(),
  reason_description: z.string().nullable().optional(),
  respond_by: unixSeconds.nullable().optional(),
  status: z.enum(DISPUTE_STATUSES),
  phase: z.string().nullable().optional(),
  created_at: unixSeconds,
});
export type RazorpayDispute = z.infer<typeof disputeSchema>;

export const collectionSchema = <T extends z.ZodType>(item: T) =>
  z.looseObject({ entity: z.literal("collection"), count: z.number().int(), items: z.array(item) });

/** A webhook body. Only the entities an event `contains` are present in `payload`. */
export const webhookEventSchema = z.looseObject({
  entity: z.literal("event"),
  account_id: z.string().optional(),
  event: z.string().min(1).max(100),
  contains: z.array(z.string()),
  payload: z.looseObject({
    subscription: z.object({ entity: subscriptionSchema }).optional(),
    payment: z.object({ entity: paymentSchema }).optional(),
    refund: z.object({ entity: refundSchema }).optional(),
    invoice: z.object({ entity: invoiceSchema }).optional(),
    dispute: z.object({ entity: disputeSchema }).optional(),
  }),
  created_at: unixSeconds,
});
export type RazorpayWebhookEvent = z.infer<typeof webhookEventSchema>;

/** Razorpay's error body: `{ error: { code, description, source, step, reason, field } }`. */
export const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string(),
    description: z.string(),
    field: z.string().nullable().optional(),
    reason: z.string().nullable().optional(),
  }),
});
