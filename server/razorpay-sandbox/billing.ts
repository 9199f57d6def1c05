/**
 * Money moving through the state machine: checkout (first authorisation), renewals ("Charge
 * this now"), failures with pending → halted, the hosted "update payment method" page.
 * Payment, invoice and refund entities are built in ledger.ts.
 */
import type {
  InvoiceEntity,
  Method,
  PaymentEntity,
  SubscriptionEntity,
  SubscriptionRecord,
} from "./entities";
import { chargeAmount, cycleInvoice, DEFAULT_VPA, newInvoice, newPayment } from "./ledger";
import {
  applyChange,
  clearSchedule,
  emit,
  endNow,
  getPlan,
  getSubscription,
  type Tx,
} from "./state";
import { spendOfferCharge, takeOffer } from "./offers";
import { addPeriod as addCycle, badRequest, newId } from "./util";

/** Consecutive failed charges after which a subscription is halted. */
const MAX_AUTH_ATTEMPTS = 3;
/**
 * Razorpay retries a failed renewal from the next day (T+1), once a day, until the attempts run
 * out (issue 59, point 5): `charge_at` says when, and the sandbox tries then (`retryDue`).
 */
export const RETRY_AFTER_SECONDS = 86_400;

/** The cycle the next charge pays for. */
function nextCycle(tx: Tx, sub: SubscriptionEntity): { start: number; end: number } {
  const plan = getPlan(tx.state, sub.plan_id);
  const fresh = sub.status === "created" || sub.status === "authenticated";
  const start = fresh ? tx.now : (sub.current_end ?? tx.now);
  return { start, end: addCycle(start, plan.period, plan.interval) };
}

/** A captured payment of `amount` with the subscription's method, paying `invoice`. */
function payInvoice(
  tx: Tx,
  record: SubscriptionRecord,
  invoice: InvoiceEntity,
  amount: number,
): PaymentEntity {
  const payment = newPayment(tx, record, {
    amount,
    method: record.method ?? "card",
    vpa: record.vpa,
    outcome: "success",
    invoiceId: invoice.id,
  });
  Object.assign(invoice, {
    status: "paid",
    payment_id: payment.id,
    paid_at: tx.now,
    amount_paid: invoice.amount,
    amount_due: 0,
    customer_id: record.entity.customer_id,
  });
  return payment;
}

/** A successful charge: captured payment, paid invoice, cycle advanced, webhooks. */
function chargeSuccess(tx: Tx, record: SubscriptionRecord): PaymentEntity {
  const sub = record.entity;
  record.failing = false;
  const wasActive = sub.status === "active";
  const cycle = nextCycle(tx, sub);
  // A first charge after a failed attempt pays the invoice that attempt was made against.
  const tried = sub.paid_count === 0 ? firstInvoiceTried(tx, record) : null;
  if (tried) Object.assign(tried, { billing_start: cycle.start, billing_end: cycle.end });
  const invoice = tried ?? cycleInvoice(tx, record, cycle.start, cycle.end);
  const payment = payInvoice(tx, record, invoice, chargeAmount(tx, record));
  spendOfferCharge(record);
  const plan = getPlan(tx.state, sub.plan_id);
  sub.status = "active";
  sub.current_start = cycle.start;
  sub.current_end = cycle.end;
  sub.charge_at = cycle.end;
  sub.paid_count += 1;
  sub.remaining_count = Math.max(0, sub.remaining_count - 1);
  sub.auth_attempts = 0;
  sub.end_at = addCycle(cycle.start, plan.period, plan.interval * (sub.remaining_count + 1));
  if (!wasActive) emit(tx, "subscription.activated", { subscription: sub });
  emit(tx, "subscription.charged", { subscription: sub, payment });
  if (sub.remaining_count === 0) {
    clearSchedule(record);
    sub.status = "completed";
    sub.ended_at = tx.now;
    sub.charge_at = null;
    emit(tx, "subscription.completed", { subscription: sub });
  }
  return payment;
}

/** A failed renewal: failed payment, invoice left issued, pending then halted. */
function chargeFailure(tx: Tx, record: SubscriptionRecord): PaymentEntity {
  const sub = record.entity;
  const start = sub.current_end ?? sub.charge_at ?? tx.now;
  const plan = getPlan(tx.state, sub.plan_id);
  const invoice = cycleInvoice(tx, record, start, addCycle(start, plan.period, plan.interval));
  const payment = newPayment(tx, record, {
    amount: chargeAmount(tx, record),
    method: record.method ?? "card",
    vpa: record.vpa,
    outcome: "failure",
    invoiceId: invoice.id,
  });
  invoice.payment_id = payment.id;
  sub.auth_attempts += 1;
  // The mandate declines until the customer authorises another way (the hosted page).
  record.failing = true;
  emit(tx, "payment.failed", { payment });
  if (sub.status === "halted") return payment;
  if (sub.auth_attempts < MAX_AUTH_ATTEMPTS) {
    sub.status = "pending";
    sub.charge_at = tx.now + RETRY_AFTER_SECONDS;
    emit(tx, "subscription.pending", { subscription: sub });
  } else {
    sub.status = "halted";
    emit(tx, "subscription.halted", { subscription: sub });
  }
  return payment;
}

export interface ChargeResult {
  subscription: SubscriptionEntity;
  payment: PaymentEntity | null;
}

/** "Charge this now": the next renewal date arrives. */
export function controlCharge(tx: Tx, id: string, fail: boolean): ChargeResult {
  const record = getSubscription(tx.state, id);
  const sub = record.entity;
  if (!["authenticated", "active", "pending", "halted"].includes(sub.status))
    throw badRequest(`Subscription cannot be charged in ${sub.status} status.`);
  if (record.scheduledCancel) {
    endNow(tx, record);
    sub.current_end = tx.now;
    return { subscription: sub, payment: null };
  }
  if (record.scheduledChange) {
    applyChange(sub, record.scheduledChange);
    clearSchedule(record);
    emit(tx, "subscription.updated", { subscription: sub });
  }
  const payment = fail ? chargeFailure(tx, record) : chargeSuccess(tx, record);
  return { subscription: sub, payment };
}

/** The test card's issuer: in India, or abroad (Razorpay's international test cards). */
export type CardIssuer = "domestic" | "international";

export interface CheckoutInput {
  method: Method;
  vpa?: string | undefined;
  /** For a card: where it was issued; by default abroad for a charge in another currency. */
  card?: CardIssuer | undefined;
  outcome: "success" | "failure";
}

/** The buyer pays in checkout: first charge, mandate-only authorisation, or a failure. */
export function checkoutPay(tx: Tx, id: string, input: CheckoutInput): ChargeResult {
  const record = getSubscription(tx.state, id);
  const sub = record.entity;
  if (sub.status !== "created")
    throw badRequest(`This subscription cannot be authorised in ${sub.status} status.`);
  assertMethodTakes(tx, record, input.method);
  rememberCard(tx, record, input);
  const vpa = input.method === "upi" ? (input.vpa ?? DEFAULT_VPA) : null;
  if (input.outcome === "failure") {
    // As at Razorpay, a charge made at checkout is made against the subscription's first invoice
    // (a later start authorises a token amount instead, on no invoice): a failed attempt names
    // it, which is how the site tells whose subscription the failure belongs to.
    const startsNow = sub.start_at === null || sub.start_at <= tx.now;
    const cycle = nextCycle(tx, sub);
    const invoice = startsNow
      ? (firstInvoiceTried(tx, record) ?? cycleInvoice(tx, record, cycle.start, cycle.end))
      : null;
    const payment = newPayment(tx, record, {
      amount: chargeAmount(tx, record),
      method: input.method,
      vpa,
      outcome: "failure",
      invoiceId: invoice?.id ?? null,
    });
    if (invoice) invoice.payment_id = payment.id;
    emit(tx, "payment.failed", { payment });
    return { subscription: sub, payment };
  }
  takeOffer(tx.state, tx.now, record, input.method);
  record.method = input.method;
  record.vpa = vpa;
  sub.payment_method = input.method;
  sub.customer_id = newId("cust");
  sub.status = "authenticated";
  sub.auth_attempts = 0;
  if (sub.start_at !== null && sub.start_at > tx.now && upfrontOf(record) > 0) {
    // An upfront amount with a future start: the authentication charges it, kept (not refunded),
    // on an invoice of its own.
    emit(tx, "subscription.authenticated", { subscription: sub });
    sub.charge_at = sub.start_at;
    const { invoice, payment } = upfrontCharge(tx, record);
    emit(tx, "payment.captured", { payment });
    emit(tx, "invoice.paid", { invoice, payment });
    return { subscription: sub, payment };
  }
  if (sub.start_at !== null && sub.start_at > tx.now) {
    const payment = newPayment(tx, record, {
      amount: 100,
      method: input.method,
      vpa,
      outcome: "success",
      invoiceId: null,
    });
    Object.assign(payment, { status: "refunded", amount_refunded: 100, refund_status: "full" });
    sub.charge_at = sub.start_at;
    emit(tx, "subscription.authenticated", { subscription: sub });
    return { subscription: sub, payment };
  }
  emit(tx, "subscription.authenticated", { subscription: sub });
  const payment = chargeSuccess(tx, record);
  return { subscription: sub, payment };
}

/** The first invoice of a subscription never charged, still issued after a failed attempt. */
function firstInvoiceTried(tx: Tx, record: SubscriptionRecord): InvoiceEntity | null {
  return (
    Object.values(tx.state.invoices).find(
      (invoice) => invoice.subscription_id === record.entity.id && invoice.status === "issued",
    ) ?? null
  );
}

/** The upfront amount (`addons` at creation) the authentication charges. */
function upfrontOf(record: SubscriptionRecord): number {
  return (record.upfront ?? []).reduce((sum, item) => sum + item.amount, 0);
}

/** The upfront amount charged at authentication: a paid invoice of its addon lines, captured. */
function upfrontCharge(
  tx: Tx,
  record: SubscriptionRecord,
): { invoice: InvoiceEntity; payment: PaymentEntity } {
  const amount = upfrontOf(record);
  const invoice = newInvoice(tx, record, {
    amount,
    billingStart: null,
    billingEnd: null,
    lines: (record.upfront ?? []).map((item) => ({
      item_id: null,
      name: item.name,
      description: null,
      amount: item.amount,
      unit_amount: item.amount,
      gross_amount: item.amount,
      net_amount: item.amount,
      type: "addon" as const,
      quantity: 1,
    })),
  });
  return { invoice, payment: payInvoice(tx, record, invoice, amount) };
}

/**
 * Razorpay's limit for UPI AutoPay: "The maximum transaction amount allowed is ₹15,000 when using
 * UPI as a payment method for Subscriptions" (its subscriptions FAQ). A mandate whose charge is
 * larger cannot be authorised with UPI.
 */
export const UPI_AUTOPAY_LIMIT_PAISE = 15_000_00;

/** UPI takes rupees only, and a subscription's debit up to the AutoPay limit. */
function assertMethodTakes(tx: Tx, record: SubscriptionRecord, method: Method): void {
  if (method !== "upi") return;
  const plan = getPlan(tx.state, record.entity.plan_id);
  if (plan.item.currency !== "INR")
    throw badRequest(
      `UPI takes payments in INR only; this subscription is charged in ${plan.item.currency}`,
    );
  const charge = Math.max(plan.item.amount * record.entity.quantity, upfrontOf(record));
  if (charge > UPI_AUTOPAY_LIMIT_PAISE)
    throw badRequest(
      "The maximum transaction amount allowed is ₹15,000 when using UPI as a payment method for Subscriptions",
    );
}

/** Where the card the buyer chose was issued, remembered for the charges it makes. */
function rememberCard(
  tx: Tx,
  record: SubscriptionRecord,
  input: { method: Method; card?: CardIssuer | undefined },
): void {
  if (input.method !== "card") {
    delete record.internationalCard;
    return;
  }
  const foreign = getPlan(tx.state, record.entity.plan_id).item.currency !== "INR";
  record.internationalCard =
    (input.card ?? (foreign ? "international" : "domestic")) === "international";
}

/** The hosted page: authorise (again) with a new method; pending/halted ones are charged now. */
export function hostedAuthorise(
  tx: Tx,
  id: string,
  input: { method: Method; vpa?: string | undefined; card?: CardIssuer | undefined },
): ChargeResult {
  const record = getSubscription(tx.state, id);
  const sub = record.entity;
  if (sub.status === "created") return checkoutPay(tx, id, { ...input, outcome: "success" });
  assertMethodTakes(tx, record, input.method);
  rememberCard(tx, record, input);
  if (!["authenticated", "active", "pending", "halted"].includes(sub.status))
    throw badRequest(`This subscription cannot be authorised in ${sub.status} status.`);
  record.method = input.method;
  record.vpa = input.method === "upi" ? (input.vpa ?? DEFAULT_VPA) : null;
  // Authorised another way: the next charge (and any retry) goes through.
  record.failing = false;
  sub.payment_method = input.method;
  if (sub.status === "pending" || sub.status === "halted") return controlCharge(tx, id, false);
  return { subscription: sub, payment: null };
}

/**
 * Razorpay's retries, when their time has come: each pending subscription whose `charge_at` has
 * passed is charged again, and declines again while its mandate still fails. Run when the
 * sandbox's clock moves (a control route) and every minute. Returns the subscriptions tried.
 */
export function retryDue(tx: Tx): string[] {
  const tried: string[] = [];
  for (const record of Object.values(tx.state.subscriptions)) {
    const sub = record.entity;
    // Each pass tries once per due retry; a clock moved by days tries each day in turn.
    while (sub.status === "pending" && sub.charge_at !== null && sub.charge_at <= tx.now) {
      if (record.failing) chargeFailure(tx, record);
      else chargeSuccess(tx, record);
      tried.push(sub.id);
    }
  }
  return tried;
}

/** Whether any retry is due now (read-only, so an idle sandbox writes nothing). */
export function anyRetryDue(
  state: { subscriptions: Record<string, SubscriptionRecord> },
  now: number,
): boolean {
  return Object.values(state.subscriptions).some(
    (record) =>
      record.entity.status === "pending" &&
      record.entity.charge_at !== null &&
      record.entity.charge_at <= now,
  );
}
