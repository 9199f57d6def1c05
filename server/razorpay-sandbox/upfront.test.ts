/**
 * Upfront amounts and quantities (issue 37, decision 0054), as Razorpay documents them: with a
 * future start, the authentication transaction charges the upfront amount (`addons`) and keeps
 * it, on an invoice of its own; UPI AutoPay refuses a mandate above ₹15,000 a charge.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorBodySchema, paymentSchema } from "../../app/.server/billing/razorpay/types";
import {
  events,
  pay,
  planAndSubscription,
  startHarness,
  T0,
  waitFor,
  type Harness,
} from "../../tests/support/sandbox";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const addon = (amount: number) => [{ item: { name: "2 seats more", amount, currency: "INR" } }];

describe("upfront amounts and the UPI limit", () => {
  it("charges the upfront amount at authentication of a future start, kept and invoiced", async () => {
    const { subId } = await planAndSubscription(h, {
      quantity: 5,
      start_at: T0 + 20 * 86_400,
      addons: addon(93_200),
    });
    const paid = await pay(h, subId);
    expect(paid.status).toBe(200);
    const payment = paymentSchema.parse(
      (await h.api("GET", `/v1/payments/${paid.json.razorpay_payment_id}`)).json,
    );
    expect(payment).toMatchObject({ amount: 93_200, status: "captured", amount_refunded: 0 });
    const invoice = (await h.api("GET", `/v1/invoices/${payment.invoice_id}`)).json;
    expect(invoice).toMatchObject({
      subscription_id: subId,
      status: "paid",
      amount: 93_200,
      billing_start: null,
    });
    expect(invoice.line_items[0]).toMatchObject({ type: "addon", amount: 93_200 });
    const sub = (await h.api("GET", `/v1/subscriptions/${subId}`)).json;
    expect(sub).toMatchObject({ status: "authenticated", paid_count: 0, quantity: 5 });
    await waitFor(() => h.receiver.received.length >= 3);
    expect(events(h.receiver).map((event) => event.event)).toEqual([
      "subscription.authenticated",
      "payment.captured",
      "invoice.paid",
    ]);
    // The first cycle, at the start: the plan × the quantity.
    const charged = await h.api("POST", `/control/subscriptions/${subId}/charge`, {});
    expect(paymentSchema.parse(charged.json.payment).amount).toBe(5 * 69_900);
  });

  it("refuses an upfront amount with an immediate start (not implemented) and one under ₹1", async () => {
    const now = await h.api("POST", "/v1/subscriptions", {
      plan_id: (await planAndSubscription(h)).planId,
      total_count: 12,
      addons: addon(10_000),
    });
    expect(now.status).toBe(400);
    const small = await planAndSubscription(h, { start_at: T0 + 86_400, addons: addon(50) });
    expect(small.sub).toMatchObject({
      error: { description: "addons.0.item.amount: The amount must be atleast INR 1.00" },
    });
  });

  it("refuses UPI AutoPay above ₹15,000 a charge, and lets a card through", async () => {
    const { subId } = await planAndSubscription(h, { quantity: 22 });
    const upi = await pay(h, subId, "success", { method: "upi" });
    expect(upi.status).toBe(400);
    expect(errorBodySchema.parse(upi.json).error.description).toBe(
      "The maximum transaction amount allowed is ₹15,000 when using UPI as a payment method for Subscriptions",
    );
    expect((await pay(h, subId, "success", { method: "card" })).status).toBe(200);
  });
});
