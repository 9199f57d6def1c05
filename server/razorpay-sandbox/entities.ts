/**
 * The sandbox's state: Razorpay entities exactly as the API returns them, plus a few internal
 * fields per record that Razorpay keeps to itself (which subscription a payment belongs to, the
 * remembered payment method, scheduled changes).
 */
import type { SandboxCurrency } from "./currencies";
import type { Notes, Period } from "./util";

export type SubscriptionStatus =
  | "created"
  | "authenticated"
  | "active"
  | "pending"
  | "halted"
  | "cancelled"
  | "completed"
  | "expired"
  | "paused";

/** Who paused a subscription: the merchant through the API, or the customer in their UPI app. */
export type PauseInitiator = "merchant" | "customer";

export type Method = "card" | "upi";

export interface PlanEntity {
  id: string;
  entity: "plan";
  interval: number;
  period: Period;
  item: {
    id: string;
    active: boolean;
    name: string;
    description: string | null;
    amount: number;
    unit_amount: number;
    currency: SandboxCurrency;
    type: "plan";
    unit: null;
    tax_inclusive: boolean;
    hsn_code: null;
    sac_code: null;
    tax_rate: null;
    tax_id: null;
    tax_group_id: null;
    created_at: number;
    updated_at: number;
  };
  notes: Notes | [];
  created_at: number;
}

export interface SubscriptionEntity {
  id: string;
  entity: "subscription";
  plan_id: string;
  customer_id: string | null;
  status: SubscriptionStatus;
  current_start: number | null;
  current_end: number | null;
  ended_at: number | null;
  quantity: number;
  notes: Notes | [];
  charge_at: number | null;
  start_at: number | null;
  end_at: number | null;
  auth_attempts: number;
  total_count: number;
  paid_count: number;
  customer_notify: 0 | 1;
  created_at: number;
  expire_by: number | null;
  short_url: string;
  has_scheduled_changes: boolean;
  change_scheduled_at: number | null;
  source: "api";
  payment_method: Method | null;
  /** The offer linked at creation (offers.ts), null without one or after it was deleted. */
  offer_id: string | null;
  remaining_count: number;
  /** Set while paused (Razorpay adds them to a paused subscription). */
  paused_at?: number | null;
  pause_initiated_by?: PauseInitiator | null;
}

export interface PaymentEntity {
  id: string;
  entity: "payment";
  amount: number;
  currency: SandboxCurrency;
  status: "captured" | "refunded" | "failed";
  order_id: null;
  invoice_id: string | null;
  /** Whether the card was issued outside India. */
  international: boolean;
  method: Method;
  amount_refunded: number;
  refund_status: "partial" | "full" | null;
  captured: boolean;
  description: string | null;
  card_id: string | null;
  card: {
    id: string;
    entity: "card";
    last4: string;
    network: string;
    type: string;
    international: boolean;
  } | null;
  bank: null;
  wallet: null;
  vpa: string | null;
  email: string | null;
  contact: string | null;
  customer_id: string | null;
  token_id: null;
  notes: Notes | [];
  fee: number | null;
  tax: number | null;
  error_code: string | null;
  error_description: string | null;
  error_source: string | null;
  error_step: string | null;
  error_reason: string | null;
  created_at: number;
  /** Only when `currency` is not INR: the amount in paise at the rate of the payment's moment. */
  base_amount?: number;
  base_currency?: "INR";
}

export interface RefundEntity {
  id: string;
  entity: "refund";
  amount: number;
  currency: SandboxCurrency;
  payment_id: string;
  notes: Notes | [];
  receipt: string | null;
  /** The bank's reference of a processed refund (an ARN for cards, an RRN for UPI). */
  acquirer_data: { arn: string | null };
  created_at: number;
  batch_id: null;
  status: "processed";
  /** Only when `currency` is not INR, as on the payment. */
  base_amount?: number;
  base_currency?: "INR";
  speed_processed: "normal";
  speed_requested: "normal" | "optimum";
}

/**
 * A chargeback or other dispute raised by the customer's bank against a captured payment
 * (Razorpay's dispute entity). `amount_deducted` stays 0 until the dispute is lost.
 */
export interface DisputeEntity {
  id: string;
  entity: "dispute";
  payment_id: string;
  amount: number;
  currency: string;
  amount_deducted: number;
  reason_code: string;
  reason_description: string;
  /** Unix seconds: the evidence is due by then. */
  respond_by: number;
  status: "open" | "under_review" | "won" | "lost" | "closed";
  phase: "chargeback" | "pre_arbitration" | "arbitration" | "retrieval" | "fraud";
  created_at: number;
}

export interface InvoiceEntity {
  id: string;
  entity: "invoice";
  type: "invoice";
  invoice_number: null;
  customer_id: string | null;
  order_id: null;
  subscription_id: string;
  payment_id: string;
  status: "issued" | "paid";
  issued_at: number;
  paid_at: number | null;
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: SandboxCurrency;
  description: null;
  notes: [];
  /** Null for an invoice of an upfront amount (no billing cycle). */
  billing_start: number | null;
  billing_end: number | null;
  line_items: {
    id: string;
    item_id: string | null;
    name: string;
    description: string | null;
    amount: number;
    unit_amount: number;
    gross_amount: number;
    tax_amount: number;
    net_amount: number;
    currency: SandboxCurrency;
    type: "plan" | "addon";
    quantity: number;
  }[];
  date: number;
  created_at: number;
}

export interface ScheduledChange {
  plan_id: string;
  quantity: number;
  remaining_count: number;
}

export interface SubscriptionRecord {
  entity: SubscriptionEntity;
  method: Method | null;
  vpa: string | null;
  /**
   * Internal: whether the remembered card was issued outside India (checkout's card choice);
   * absent in state saved before it existed, and for UPI.
   */
  internationalCard?: boolean;
  scheduledCancel: boolean;
  scheduledChange: ScheduledChange | null;
  /**
   * Internal: how many more charges the linked offer discounts, decided when the customer
   * authorises (null: every charge, a "forever" offer; 0 or absent: none).
   */
  offerChargesLeft?: number | null;
  /**
   * Internal: the upfront amount's items (`addons` at creation). Razorpay charges them as the
   * authentication transaction: with a future start, instead of the refunded token; with an
   * immediate one, on top of the first charge.
   */
  upfront?: { name: string; amount: number }[];
  /**
   * Internal: the buyer's answer to the UPI mandate's QR code, given in their UPI app (the
   * control route stands for the scan); the open checkout reads it and finishes as Razorpay's
   * does. Absent until scanned.
   */
  upiScan?: { outcome: "success" | "failure"; paymentId: string };
  /**
   * Internal: the remembered card or mandate declines (a charge failed, and the customer has not
   * authorised another way since). Razorpay's retries fail while it does.
   */
  failing?: boolean;
}

/**
 * A subscription offer as the Dashboard creates it (Razorpay has no API to create one): the
 * discount, how many charges it covers, the payment method it needs and its limits.
 */
export interface OfferRecord {
  id: string;
  name: string;
  display_text: string | null;
  /** single_use: the first charge; cycles: the first `cycles` charges; forever: every charge. */
  type: "single_use" | "cycles" | "forever";
  cycles: number | null;
  discount_type: "percentage" | "flat";
  /** Percent (whole number) for percentage, paise for flat. */
  discount_value: number;
  /** A percentage discount's cap in paise ("10% up to ₹300"), null without one. */
  max_discount: number | null;
  /** The method the offer is for; null when the Dashboard offer has no method limit. */
  payment_method: Method | null;
  /** "On payment failure": pay without the offer, or refuse the payment. */
  on_failure: "allow" | "block";
  starts_at: number | null;
  expires_at: number | null;
  max_usage: number | null;
  /** Authorisations that took the offer. */
  used: number;
  enabled: boolean;
  created_at: number;
}

export interface PaymentRecord {
  entity: PaymentEntity;
  /** Internal: not a field of Razorpay's payment entity. */
  subscriptionId: string | null;
}

/** Everything the sandbox knows; plain JSON, in creation order (ids never look like integers). */
export interface SandboxState {
  version: 1;
  plans: Record<string, PlanEntity>;
  subscriptions: Record<string, SubscriptionRecord>;
  payments: Record<string, PaymentRecord>;
  refunds: Record<string, RefundEntity>;
  invoices: Record<string, InvoiceEntity>;
  /**
   * Internal: `X-Refund-Idempotency` keys seen, with the request they came with and the refund
   * they made. Optional so that state saved before it existed still loads.
   */
  refundKeys?: Record<string, { request: string; refundId: string }>;
  /** Offers made in the "Dashboard" (control routes). Optional so that older state loads. */
  offers?: Record<string, OfferRecord>;
  /** Disputes raised on the control route, as a bank would. Optional so that older state loads. */
  disputes?: Record<string, DisputeEntity>;
  /**
   * A test clock, as Stripe's: seconds the sandbox's time runs ahead of the real one, moved by
   * `POST /control/clock/advance` so that retries and renewals due later can be seen now.
   */
  clockOffsetSeconds?: number;
}

export function emptyState(): SandboxState {
  return { version: 1, plans: {}, subscriptions: {}, payments: {}, refunds: {}, invoices: {} };
}

/** One webhook body before delivery: `{entity:"event", …}` with snapshots of the entities. */
export interface EventEnvelope {
  entity: "event";
  account_id: string;
  event: string;
  contains: string[];
  payload: {
    subscription?: { entity: SubscriptionEntity };
    payment?: { entity: PaymentEntity };
    refund?: { entity: RefundEntity };
    invoice?: { entity: InvoiceEntity };
    dispute?: { entity: DisputeEntity };
  };
  created_at: number;
}
