/**
 * Issue 56: the sandbox does what Razorpay does for an account with international payments
 * enabled (plans and charges in USD or EUR, card only, each payment carrying its rupee value,
 * refunds in the payment's currency), and what it does for one without (a plan in another
 * currency refused with words, before any customer sees a checkout).
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  errorBodySchema,
  paymentSchema,
  planSchema,
  refundSchema,
} from "../../app/.server/billing/razorpay/types";
import {
  events,
  pay,
  planAndSubscription,
  startHarness,
  type Harness,
} from "../../tests/support/sandbox";
import { SANDBOX_INR_RATES } from "./currencies";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const USD_YEARLY = {
  period: "yearly",
  interval: 1,
  item: { name: "Pro yearly", amount: 89_00, currency: "USD" },
};

function capturedPayment(harness: Harness) {
  const event = events(harness.receiver).find((e) => e.event === "subscription.charged");
  if (!event) throw new Error("no subscription.charged delivered");
  const body = JSON.parse(event.body) as { payload: { payment: { entity: unknown } } };
  return paymentSchema.parse(body.payload.payment.entity);
}

describe("an account with international payments enabled", () => {
  it("takes a plan in USD and charges a card issued abroad in dollars, with its rupee value", async () => {
    h = await startHarness();
    const { planId, subId } = await planAndSubscription(h, {}, USD_YEARLY);
    const plan = planSchema.parse((await h.api("GET", `/v1/plans/${planId}`)).json);
    expect(plan.item).toMatchObject({ amount: 89_00, currency: "USD" });

    const paid = await pay(h, subId, "success", { card: "international" });
    expect(paid.status).toBe(200);
    await expect
      .poll(() => events(h!.receiver).map((e) => e.event))
      .toContain("subscription.charged");
    const payment = capturedPayment(h);
    expect(payment).toMatchObject({
      amount: 89_00,
      currency: "USD",
      international: true,
      base_currency: "INR",
      // $89.00 at the sandbox's ₹84.50: ₹7,520.50.
      base_amount: (89_00 * SANDBOX_INR_RATES.USD) / 100,
    });
    expect(payment.base_amount).toBe(7_520_50);
    expect(Number.isInteger(payment.base_amount)).toBe(true);

    // A partial refund is in dollars too, its rupees at the payment's own rate.
    const refund = refundSchema.parse(
      (await h.api("POST", `/v1/payments/${payment.id}/refund`, { amount: 44_50 })).json,
    );
    expect(refund).toMatchObject({
      amount: 44_50,
      currency: "USD",
      base_amount: 3_760_25,
      base_currency: "INR",
    });
  });

  it("refuses UPI for a charge in another currency, in words", async () => {
    h = await startHarness();
    const { subId } = await planAndSubscription(h, {}, USD_YEARLY);
    const refused = await pay(h, subId, "success", { method: "upi", vpa: "success@razorpay" });
    expect(refused.status).toBe(400);
    expect(errorBodySchema.parse(refused.json).error.description).toBe(
      "UPI takes payments in INR only; this subscription is charged in USD",
    );
  });

  it("keeps rupee payments as they were: no conversion fields, a domestic card", async () => {
    h = await startHarness();
    const { subId } = await planAndSubscription(h);
    expect((await pay(h, subId)).status).toBe(200);
    await expect
      .poll(() => events(h!.receiver).map((e) => e.event))
      .toContain("subscription.charged");
    const payment = capturedPayment(h);
    expect(payment).toMatchObject({ amount: 69_900, currency: "INR", international: false });
    expect(payment).not.toHaveProperty("base_amount");
  });

  it("never moves a subscription to a plan in another currency, nor adds an addon in one", async () => {
    h = await startHarness();
    const { subId } = await planAndSubscription(h);
    expect((await pay(h, subId)).status).toBe(200);
    const usd = await h.api("POST", "/v1/plans", USD_YEARLY);
    const moved = await h.api("PATCH", `/v1/subscriptions/${subId}`, {
      plan_id: usd.json.id,
      schedule_change_at: "cycle_end",
    });
    expect(moved.status).toBe(400);
    expect(errorBodySchema.parse(moved.json).error.description).toBe(
      "A subscription cannot change to a plan in another currency",
    );
    const mixed = await h.api("POST", "/v1/subscriptions", {
      plan_id: usd.json.id,
      total_count: 5,
      start_at: Math.floor(h.clock.now) + 86_400,
      addons: [{ item: { name: "2 seats more", amount: 139_800, currency: "INR" } }],
    });
    expect(mixed.status).toBe(400);
    expect(errorBodySchema.parse(mixed.json).error.field).toBe("addons");
  });
});

describe("an account without international payments", () => {
  it("refuses a plan in another currency with words the operator can act on, and rupees still work", async () => {
    h = await startHarness({ internationalPayments: false });
    const refused = await h.api("POST", "/v1/plans", USD_YEARLY);
    expect(refused.status).toBe(400);
    const error = errorBodySchema.parse(refused.json).error;
    expect(error.description).toMatch(/^International payments are not enabled for this account/);
    expect(error.field).toBe("currency");
    expect((await planAndSubscription(h)).subId).toMatch(/^sub_/);
  });

  it("refuses a currency Razorpay's list does not have", async () => {
    h = await startHarness();
    const refused = await h.api("POST", "/v1/plans", {
      ...USD_YEARLY,
      item: { ...USD_YEARLY.item, currency: "XYZ" },
    });
    expect(refused.status).toBe(400);
  });
});
