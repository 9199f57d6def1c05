/** Subscription offers: made in the "Dashboard", linked at creation, taken at authorisation. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paymentSchema, subscriptionSchema } from "../../app/.server/billing/razorpay/types";
import {
  KEY_ID,
  pay,
  planAndSubscription,
  startHarness,
  T0,
  type Harness,
} from "../../tests/support/sandbox";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function offer(body: Record<string, unknown>): Promise<string> {
  const made = await h.api("POST", "/control/offers", { name: "Launch", ...body });
  expect(made.status).toBe(200);
  return String(made.json.id);
}

async function charge(subId: string): Promise<number> {
  const charged = await h.api("POST", `/control/subscriptions/${subId}/charge`, {});
  expect(charged.status).toBe(200);
  return paymentSchema.parse(charged.json.payment).amount;
}

async function firstPayment(subId: string, method: "card" | "upi" = "card") {
  const paid = await pay(h, subId, "success", { method });
  expect(paid.status).toBe(200);
  return paymentSchema.parse(
    (await h.api("GET", `/v1/payments/${paid.json.razorpay_payment_id}`)).json,
  );
}

describe("offers", () => {
  it("takes 20% off the first three charges, then charges the plan's price", async () => {
    const offerId = await offer({
      type: "cycles",
      cycles: 3,
      discount_type: "percentage",
      discount_value: 20,
    });
    const { subId, sub } = await planAndSubscription(h, { offer_id: offerId });
    expect(subscriptionSchema.parse(sub).offer_id).toBe(offerId);
    const info = await h.api("GET", `/checkout/subscriptions/${subId}?key_id=${KEY_ID}`);
    expect(info.json.offer).toMatchObject({ name: "Launch", amount: 55920 });
    expect((await firstPayment(subId)).amount).toBe(55920);
    expect(await charge(subId)).toBe(55920);
    expect(await charge(subId)).toBe(55920);
    expect(await charge(subId)).toBe(69900);
    const invoices = await h.api("GET", `/v1/invoices?subscription_id=${subId}`);
    // Newest first, as Razorpay lists them.
    expect(invoices.json.items.map((inv: { amount: number }) => inv.amount)).toEqual([
      69900, 55920, 55920, 55920,
    ]);
  });

  it("takes a flat amount off the first charge only (single use), capped to leave more than ₹1", async () => {
    const single = await offer({
      type: "single_use",
      discount_type: "flat",
      discount_value: 20000,
    });
    const { subId } = await planAndSubscription(h, { offer_id: single });
    expect((await firstPayment(subId)).amount).toBe(49900);
    expect(await charge(subId)).toBe(69900);

    const tooBig = await offer({ type: "forever", discount_type: "flat", discount_value: 69850 });
    const other = await planAndSubscription(h, { offer_id: tooBig });
    expect((await firstPayment(other.subId)).amount).toBe(69900);
  });

  it("applies a percentage's cap", async () => {
    const capped = await offer({
      type: "forever",
      discount_type: "percentage",
      discount_value: 50,
      max_discount: 10000,
    });
    const { subId } = await planAndSubscription(h, { offer_id: capped });
    expect((await firstPayment(subId)).amount).toBe(59900);
    expect(await charge(subId)).toBe(59900);
  });

  it("keeps to the offer's method: refused (block) or charged in full (allow)", async () => {
    const upiOnly = await offer({
      type: "forever",
      discount_type: "percentage",
      discount_value: 10,
      payment_method: "upi",
    });
    const { subId } = await planAndSubscription(h, { offer_id: upiOnly });
    const refused = await pay(h, subId, "success", { method: "card" });
    expect(refused.status).toBe(400);
    expect(refused.json.error.description).toBe("The offer is not applicable on card payments.");
    expect((await firstPayment(subId, "upi")).amount).toBe(62910);

    const allow = await offer({
      type: "forever",
      discount_type: "percentage",
      discount_value: 10,
      payment_method: "upi",
      on_failure: "allow",
    });
    const other = await planAndSubscription(h, { offer_id: allow });
    expect((await firstPayment(other.subId, "card")).amount).toBe(69900);
    expect(await charge(other.subId)).toBe(69900);
  });

  it("refuses an unknown, disabled, expired or used-up offer when the subscription is created", async () => {
    const unknown = await planAndSubscription(h, { offer_id: "offer_Nope0000000001" });
    expect(unknown.sub.error).toMatchObject({ field: "offer_id" });

    const once = await offer({
      type: "forever",
      discount_type: "flat",
      discount_value: 100,
      max_usage: 1,
      expires_at: T0 + 3600,
    });
    const first = await planAndSubscription(h, { offer_id: once });
    await firstPayment(first.subId);
    const usedUp = await planAndSubscription(h, { offer_id: once });
    expect(usedUp.sub.error.description).toBe("The offer has reached its maximum usage");

    const later = await offer({
      type: "forever",
      discount_type: "flat",
      discount_value: 100,
      expires_at: T0 + 3600,
    });
    h.clock.now = T0 + 3600;
    expect((await planAndSubscription(h, { offer_id: later })).sub.error.description).toBe(
      "The offer has expired",
    );
    const off = await offer({ type: "forever", discount_type: "flat", discount_value: 100 });
    expect((await h.api("POST", `/control/offers/${off}/disable`)).json.enabled).toBe(false);
    expect((await planAndSubscription(h, { offer_id: off })).sub.error.description).toBe(
      "The offer is disabled",
    );
  });

  it("charges the plan's price after the offer is deleted from the subscription", async () => {
    const forever = await offer({ type: "forever", discount_type: "flat", discount_value: 10000 });
    const { subId } = await planAndSubscription(h, { offer_id: forever });
    expect((await firstPayment(subId)).amount).toBe(59900);
    const removed = await h.api("DELETE", `/v1/subscriptions/${subId}/${forever}`);
    expect(subscriptionSchema.parse(removed.json).offer_id).toBeNull();
    expect(await charge(subId)).toBe(69900);
  });
});
