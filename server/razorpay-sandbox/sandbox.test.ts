/** Checkout, renewals and the state machine; webhook delivery, persistence, served assets. */
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  collectionSchema,
  errorBodySchema,
  invoiceSchema,
  paymentSchema,
  subscriptionSchema,
  webhookEventSchema,
} from "../../app/.server/billing/razorpay/types";
import {
  events,
  KEY_ID,
  KEY_SECRET,
  pay,
  planAndSubscription,
  startHarness,
  T0,
  waitFor,
  WEBHOOK_SECRET,
  type Harness,
} from "../../tests/support/sandbox";

const hmac = (secret: string, text: string) =>
  createHmac("sha256", secret).update(text).digest("hex");
/** 2026-02-28 10:00 UTC: one month after 31 January, clamped. */
const FEB_28 = Date.UTC(2026, 1, 28, 10, 0, 0) / 1000;
const MAR_28 = Date.UTC(2026, 2, 28, 10, 0, 0) / 1000;

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

function expectError(response: { status: number; json: unknown }, status: number) {
  expect(response.status).toBe(status);
  const body = errorBodySchema.parse(response.json);
  expect(body.error.code).toBe("BAD_REQUEST_ERROR");
  return body.error;
}

async function sub(id: string) {
  return subscriptionSchema.parse((await h.api("GET", `/v1/subscriptions/${id}`)).json);
}

const eventNames = () => events(h.receiver).map((e) => e.event);

describe("checkout and renewals", () => {
  it("activates on a successful checkout, signs the handler response and sends webhooks in order", async () => {
    const { subId } = await planAndSubscription(h, { notes: { email: "a@example.com" } });
    const info = await h.api("GET", `/checkout/subscriptions/${subId}?key_id=${KEY_ID}`);
    expect(info.json).toMatchObject({ id: subId, status: "created", quantity: 1 });
    expect(info.json.plan).toMatchObject({ amount: 69900, period: "monthly", interval: 1 });
    expectError(await h.api("GET", `/checkout/subscriptions/${subId}?key_id=rzp_x`), 401);

    const paid = await pay(h, subId);
    expect(paid.status).toBe(200);
    const { razorpay_payment_id: payId, razorpay_signature: signature } = paid.json;
    expect(paid.json.razorpay_subscription_id).toBe(subId);
    expect(signature).toBe(hmac(KEY_SECRET, `${payId}|${subId}`));

    const active = await sub(subId);
    expect(active).toMatchObject({
      status: "active",
      current_start: T0,
      current_end: FEB_28,
      charge_at: FEB_28,
      paid_count: 1,
      remaining_count: 11,
    });
    expect(active.customer_id).toMatch(/^cust_/);
    const payment = paymentSchema.parse((await h.api("GET", `/v1/payments/${payId}`)).json);
    expect(payment).toMatchObject({ status: "captured", amount: 69900, method: "card" });
    expect(payment).toMatchObject({ fee: 1398, tax: 252, email: "a@example.com" });
    expect(payment).not.toHaveProperty("subscription_id");

    await waitFor(() => h.receiver.received.length >= 3);
    expect(eventNames()).toEqual([
      "subscription.authenticated",
      "subscription.activated",
      "subscription.charged",
    ]);
    for (const received of h.receiver.received) {
      expect(received.headers["x-razorpay-signature"]).toBe(hmac(WEBHOOK_SECRET, received.body));
      expect(received.headers["user-agent"]).toBe("Razorpay-Webhook/v1");
      expect(received.headers["x-razorpay-event-id"]).toMatch(/^evt_/);
      webhookEventSchema.parse(JSON.parse(received.body));
    }
    const charged = webhookEventSchema.parse(JSON.parse(h.receiver.received[2]?.body ?? ""));
    expect(charged.contains).toEqual(["subscription", "payment"]);
    expect(charged.payload.payment?.entity.id).toBe(payId);
    const log = await h.api("GET", "/control/webhooks");
    expect(log.json.items.map((i: { status: string }) => i.status)).toEqual([
      "delivered",
      "delivered",
      "delivered",
    ]);

    const invoices = await h.api("GET", `/v1/invoices?subscription_id=${subId}`);
    const [invoice] = collectionSchema(invoiceSchema).parse(invoices.json).items;
    expect(invoice).toMatchObject({ status: "paid", payment_id: payId, amount: 69900 });
    expect(invoice).toMatchObject({ billing_start: T0, billing_end: FEB_28, invoice_number: null });
    expectError(await pay(h, subId), 400);
  });

  it("keeps a failed checkout in created and reports payment.failed", async () => {
    const { subId } = await planAndSubscription(h);
    const failed = await pay(h, subId, "failure");
    expect(failed.status).toBe(400);
    expect(failed.json.error).toMatchObject({ reason: "payment_failed", source: "bank" });
    expect(failed.json.error.metadata.subscription_id).toBe(subId);
    expect((await sub(subId)).status).toBe("created");
    await waitFor(() => h.receiver.received.length >= 1);
    expect(eventNames()).toEqual(["payment.failed"]);
    expect((await pay(h, subId)).status).toBe(200);
  });

  it("authorises only for a future start, then charges on the start date", async () => {
    const start = T0 + 7 * 86_400;
    const { subId } = await planAndSubscription(h, { start_at: start });
    const paid = await pay(h, subId, "success", { method: "upi" });
    const auth = paymentSchema.parse(
      (await h.api("GET", `/v1/payments/${paid.json.razorpay_payment_id}`)).json,
    );
    expect(auth).toMatchObject({ amount: 100, status: "refunded", amount_refunded: 100 });
    expect(auth.vpa).toBe("success@razorpay");
    expect(await sub(subId)).toMatchObject({
      status: "authenticated",
      current_start: null,
      charge_at: start,
    });
    h.clock.now = start;
    const charged = await h.api("POST", `/control/subscriptions/${subId}/charge`, {});
    expect(charged.json.subscription).toMatchObject({ status: "active", current_start: start });
    await waitFor(() => h.receiver.received.length >= 3);
    expect(eventNames()).toEqual([
      "subscription.authenticated",
      "subscription.activated",
      "subscription.charged",
    ]);
  });

  it("advances the cycle, goes pending → halted on failures and back to active", async () => {
    const { subId } = await planAndSubscription(h);
    await pay(h, subId);
    const charge = (fail = false) =>
      h.api("POST", `/control/subscriptions/${subId}/charge`, fail ? { fail } : {});
    const renewed = await charge();
    expect(renewed.json.subscription).toMatchObject({
      status: "active",
      current_start: FEB_28,
      current_end: MAR_28,
      paid_count: 2,
    });
    paymentSchema.parse(renewed.json.payment);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await charge(true)).json.subscription.status);
    expect(statuses).toEqual(["pending", "pending", "halted"]);
    expect((await sub(subId)).current_end).toBe(MAR_28);
    const back = await charge();
    expect(back.json.subscription).toMatchObject({ status: "active", auth_attempts: 0 });
    expect(back.json.subscription.current_start).toBe(MAR_28);
    await waitFor(() => h.receiver.received.length >= 12);
    expect(eventNames().slice(4)).toEqual([
      "payment.failed",
      "subscription.pending",
      "payment.failed",
      "subscription.pending",
      "payment.failed",
      "subscription.halted",
      "subscription.activated",
      "subscription.charged",
    ]);
    const invoices = (await h.api("GET", `/v1/invoices?subscription_id=${subId}`)).json.items;
    expect(invoices.map((i: { status: string }) => i.status)).toEqual(["paid", "paid", "paid"]);
  });

  it("completes after the last charge and refuses charges when not chargeable", async () => {
    const { subId } = await planAndSubscription(h, { total_count: 2 });
    expectError(await h.api("POST", `/control/subscriptions/${subId}/charge`, {}), 400);
    await pay(h, subId);
    const last = await h.api("POST", `/control/subscriptions/${subId}/charge`, {});
    expect(last.json.subscription).toMatchObject({ status: "completed", remaining_count: 0 });
    await waitFor(() => h.receiver.received.length >= 5);
    expect(eventNames().slice(3)).toEqual(["subscription.charged", "subscription.completed"]);
  });
});

describe("delivery, persistence, assets", () => {
  it("retries failed deliveries with the same event id", async () => {
    h.receiver.failNext(2);
    const { subId } = await planAndSubscription(h);
    await pay(h, subId, "failure");
    const log = await waitFor(async () => {
      const items = (await h.api("GET", "/control/webhooks")).json.items;
      return items[0]?.status === "delivered" ? items : null;
    });
    expect(log[0]).toMatchObject({ event: "payment.failed", attempts: 3, last_status: 200 });
    expect(h.receiver.received).toHaveLength(3);
    expect(new Set(events(h.receiver).map((e) => e.id))).toEqual(new Set([log[0].id]));
  });

  it("persists state to statePath and reloads it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rzp-sandbox-"));
    const statePath = path.join(dir, "nested", "state.json");
    try {
      const first = await startHarness({ statePath });
      const { subId } = await planAndSubscription(first);
      await pay(first, subId);
      await first.close();
      expect(fs.readdirSync(path.dirname(statePath))).toEqual(["state.json"]);
      const second = await startHarness({ statePath });
      try {
        expect((await second.api("GET", `/v1/subscriptions/${subId}`)).json.status).toBe("active");
        const charged = await second.api("POST", `/control/subscriptions/${subId}/charge`, {});
        expect(charged.json.subscription.paid_count).toBe(2);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("serves checkout.js as JavaScript that defines Razorpay", async () => {
    const script = await h.api("GET", "/checkout.js", undefined, { auth: false });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(script.text).toContain("Razorpay");
    expect(() => new vm.Script(script.text)).not.toThrow();
    const css = await h.api("GET", "/checkout.css", undefined, { auth: false });
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect((await h.api("GET", "/nowhere", undefined, { auth: false })).status).toBe(404);
  });
});
