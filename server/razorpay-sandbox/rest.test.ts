/** The REST contract: auth, validation, plans, subscriptions, cancel, update, refunds, hosted page. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  collectionSchema,
  errorBodySchema,
  paymentSchema,
  planSchema,
  subscriptionSchema,
  webhookEventSchema,
} from "../../app/.server/billing/razorpay/types";
import {
  events,
  KEY_ID,
  pay,
  planAndSubscription,
  startHarness,
  T0,
  waitFor,
  type Harness,
} from "../../tests/support/sandbox";

/** 2026-02-28 10:00 UTC: one month after 31 January, clamped. */
const FEB_28 = Date.UTC(2026, 1, 28, 10, 0, 0) / 1000;

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

const eventNames = () => events(h.receiver).map((e) => e.event);

describe("REST basics", () => {
  it("requires Basic auth on /v1 and /control", async () => {
    for (const route of ["/v1/plans", "/control/webhooks"]) {
      const error = expectError(await h.api("GET", route, undefined, { auth: false }), 401);
      expect(error.description).toBe("Authentication failed");
      expectError(await h.api("GET", route, undefined, { auth: `${KEY_ID}:wrong` }), 401);
    }
  });

  it("answers malformed JSON and invalid bodies with Razorpay's 400", async () => {
    const broken = expectError(await h.api("POST", "/v1/plans", "{not json"), 400);
    expect(broken.description).toMatch(/JSON/);
    const cheap = expectError(
      await h.api("POST", "/v1/plans", {
        period: "monthly",
        interval: 1,
        item: { name: "x", amount: 50, currency: "INR" },
      }),
      400,
    );
    expect(cheap.field).toBe("item.amount");
    const daily = expectError(
      await h.api("POST", "/v1/plans", {
        period: "daily",
        interval: 1,
        item: { name: "x", amount: 100, currency: "INR" },
      }),
      400,
    );
    expect(daily.field).toBe("interval");
    const extra = expectError(await h.api("POST", "/v1/subscriptions", { bogus: 1 }), 400);
    expect(extra.description).toMatch(/bogus|plan_id/);
    const missing = expectError(await h.api("GET", "/v1/subscriptions/sub_nope"), 404);
    expect(missing.description).toBe("The id provided does not exist");
  });

  it("creates, fetches and lists plans", async () => {
    const created = await h.api("POST", "/v1/plans", {
      period: "yearly",
      interval: 1,
      item: { name: "Pinout Pro yearly", amount: 699000, currency: "INR", description: "1 year" },
      notes: { tier: "pro" },
    });
    expect(created.status).toBe(200);
    const plan = planSchema.parse(created.json);
    expect(plan.id).toMatch(/^plan_[0-9A-Za-z]{14}$/);
    expect(created.json.item).toMatchObject({ active: true, amount: 699000 });
    expect(created.json.item.id).toMatch(/^item_/);
    expect(planSchema.parse((await h.api("GET", `/v1/plans/${plan.id}`)).json)).toEqual(plan);
    await h.api("POST", "/v1/plans", {
      period: "monthly",
      interval: 1,
      item: { name: "Monthly", amount: 69900, currency: "INR" },
    });
    const list = collectionSchema(planSchema).parse((await h.api("GET", "/v1/plans")).json);
    expect(list.count).toBe(2);
    expect(list.items[1]?.id).toBe(plan.id);
  });

  it("creates subscriptions in Razorpay's shape", async () => {
    const { subId, sub: raw, planId } = await planAndSubscription(h);
    expect(raw.notes).toEqual([]);
    const created = subscriptionSchema.parse(raw);
    expect(created).toMatchObject({
      status: "created",
      current_start: null,
      current_end: null,
      charge_at: null,
      paid_count: 0,
      remaining_count: 12,
      auth_attempts: 0,
      customer_id: null,
      has_scheduled_changes: false,
      short_url: `${h.base}/hosted/${subId}`,
    });
    const list = await h.api("GET", `/v1/subscriptions?plan_id=${planId}&count=5`);
    expect(collectionSchema(subscriptionSchema).parse(list.json).items).toHaveLength(1);
    expectError(await h.api("GET", "/v1/subscriptions?count=101"), 400);
    const past = await h.api("POST", "/v1/subscriptions", {
      plan_id: planId,
      total_count: 1,
      start_at: T0 - 10,
    });
    expectError(past, 400);
  });
});

describe("cancel, update, refund, hosted page", () => {
  it("schedules a cancel at cycle end, undoes it, and cancels at the next charge", async () => {
    const { subId } = await planAndSubscription(h);
    await pay(h, subId);
    const cancel = () =>
      h.api("POST", `/v1/subscriptions/${subId}/cancel`, { cancel_at_cycle_end: 1 });
    const scheduled = subscriptionSchema.parse((await cancel()).json);
    expect(scheduled).toMatchObject({ status: "active", has_scheduled_changes: true });
    expect(scheduled.change_scheduled_at).toBe(FEB_28);
    const undone = await h.api("POST", `/v1/subscriptions/${subId}/cancel_scheduled_changes`);
    expect(undone.json).toMatchObject({ has_scheduled_changes: false, change_scheduled_at: null });
    await cancel();
    h.clock.now = T0 + 3600;
    const ended = await h.api("POST", `/control/subscriptions/${subId}/charge`, {});
    expect(ended.json.payment).toBeNull();
    const cancelled = subscriptionSchema.parse(ended.json.subscription);
    expect(cancelled).toMatchObject({ status: "cancelled", ended_at: h.clock.now });
    expect(cancelled.current_end).toBeLessThanOrEqual(h.clock.now);
    const again = expectError(await h.api("POST", `/v1/subscriptions/${subId}/cancel`, {}), 400);
    expect(again.description).toBe("Subscription is not cancellable in cancelled status.");
    await waitFor(() => eventNames().includes("subscription.cancelled"));
  });

  it("cancels immediately and refuses updates of UPI subscriptions", async () => {
    const { subId, planId } = await planAndSubscription(h);
    await pay(h, subId, "success", { method: "upi", vpa: "buyer@okbank" });
    const refused = expectError(
      await h.api("PATCH", `/v1/subscriptions/${subId}`, { plan_id: planId }),
      400,
    );
    expect(refused.description).toBe(
      "Subscription cannot be updated when the payment method is UPI or emandate.",
    );
    const now = await h.api("POST", `/v1/subscriptions/${subId}/cancel`, {
      cancel_at_cycle_end: false,
    });
    expect(now.json).toMatchObject({ status: "cancelled", ended_at: T0 });
  });

  it("changes the plan of a card subscription now or at cycle end", async () => {
    const { subId } = await planAndSubscription(h);
    await pay(h, subId);
    const yearly = await h.api("POST", "/v1/plans", {
      period: "yearly",
      interval: 1,
      item: { name: "Yearly", amount: 699000, currency: "INR" },
    });
    const later = await h.api("PATCH", `/v1/subscriptions/${subId}`, {
      plan_id: yearly.json.id,
      schedule_change_at: "cycle_end",
    });
    expect(later.json).toMatchObject({ has_scheduled_changes: true, plan_id: expect.any(String) });
    expect(later.json.plan_id).not.toBe(yearly.json.id);
    const charged = await h.api("POST", `/control/subscriptions/${subId}/charge`, {});
    expect(charged.json.subscription.plan_id).toBe(yearly.json.id);
    expect(charged.json.payment.amount).toBe(699000);
  });

  it("refunds partly, then fully, and refuses over-refunds", async () => {
    const { subId } = await planAndSubscription(h);
    const payId = (await pay(h, subId)).json.razorpay_payment_id;
    const refund = (body: object) => h.api("POST", `/v1/payments/${payId}/refund`, body);
    const partial = await refund({ amount: 10000, speed: "normal" });
    expect(partial.json).toMatchObject({ entity: "refund", amount: 10000, status: "processed" });
    expect(partial.json.id).toMatch(/^rfnd_/);
    const over = expectError(await refund({ amount: 60000 }), 400);
    expect(over.description).toBe("The refund amount provided is greater than amount captured");
    const rest = await refund({});
    expect(rest.json.amount).toBe(59900);
    const payment = paymentSchema.parse((await h.api("GET", `/v1/payments/${payId}`)).json);
    expect(payment).toMatchObject({ status: "refunded", amount_refunded: 69900 });
    expect(payment.refund_status).toBe("full");
    expectError(await refund({}), 400);
    await waitFor(() => h.receiver.received.length >= 7);
    const last = webhookEventSchema.parse(JSON.parse(h.receiver.received[6]?.body ?? ""));
    expect(last.event).toBe("refund.processed");
    expect(last.contains).toEqual(["refund", "payment"]);
  });

  it("serves the hosted page and charges a halted subscription with a new method", async () => {
    const { subId } = await planAndSubscription(h);
    await pay(h, subId);
    for (let i = 0; i < 3; i++)
      await h.api("POST", `/control/subscriptions/${subId}/charge`, { fail: true });
    const page = await h.api("GET", `/hosted/${subId}?return=/account/billing`, undefined, {
      auth: false,
    });
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.text).toContain("<title>Update payment method — Test mode</title>");
    expect(page.text).toContain('href="/account/billing"');
    expect(page.text).not.toMatch(/<script>|style=/);
    const evil = await h.api("GET", `/hosted/${subId}?return=//evil.example`, undefined, {
      auth: false,
    });
    expect(evil.text).not.toContain("evil.example");
    const result = await h.api(
      "POST",
      `/hosted/${subId}/authorise`,
      { method: "upi", vpa: "new@okbank" },
      { auth: false },
    );
    expect(result.json.subscription).toMatchObject({ status: "active", payment_method: "upi" });
    expect(result.json.payment).toMatchObject({ status: "captured", vpa: "new@okbank" });
  });
});
