/**
 * The billing domain against a real database and the fake Razorpay over HTTP: what the
 * real-provider code sends, webhook verification, idempotence and ordering, entitlement in time.
 */
import { personBuyer } from "./buyer";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAKE_KEYS,
  type FakeRazorpay,
  startFakeRazorpay,
} from "../../../tests/support/fake-razorpay";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { requestRefund, reviewRefund } from "../admin/refunds.server";
import {
  auditLog,
  jobs,
  payments,
  providerPlans,
  subscriptions,
  webhookEvents,
} from "../db/schema";
import { invoiceForPayment } from "../invoices/issue.server";
import { istDay } from "~/lib/india-time";
import { formatDate } from "~/lib/dates";
import {
  cancelAtPeriodEnd,
  cancelEverythingFor,
  startPlanSwitch,
  undoCancellation,
  withdrawSwitch,
} from "./manage.server";
import {
  finishSwitch,
  FINISH_SWITCH_JOB,
  RETIRE_HALTED_JOB,
  retireHalted,
} from "./sync-reactions.server";
import { BILLING_MAIL_JOB } from "./notify.server";
import { makeRefund, queueRefund, REFUND_JOB, refundableLeft, refundJob } from "./refunds.server";
import { billingOverview, statusText } from "./overview.server";
import {
  checkoutSignature,
  proOrder,
  RESYNC_JOB,
  startCheckout as startOrder,
  verifyCheckout,
} from "./checkout.server";
import { resyncFromProvider } from "./resync.server";
import { queueStaleResyncs } from "./stale.server";
import { dedupeKeyTaken, enqueueJob } from "../jobs/queue.server";
import { pruneQueueAndWebhooks } from "../jobs/retention.server";
import { entitlementFor } from "./entitlement.server";
import { providerPlanAmount, syncPlans } from "./plans.server";
import { createRazorpayClient, type RazorpayClient } from "./razorpay/client";
import {
  PROCESS_WEBHOOK_JOB,
  processWebhookEvent,
  receiveWebhook,
  webhookSignature,
} from "./webhooks.server";

const basic = `Basic ${Buffer.from(`${FAKE_KEYS.keyId}:${FAKE_KEYS.keySecret}`).toString("base64")}`;
let eventSeq = 0;

describe("billing with the fake Razorpay", () => {
  let test: TestDatabase;
  let fake: FakeRazorpay;
  let client: RazorpayClient;

  beforeAll(async () => {
    [test, fake] = await Promise.all([openTestDatabase(), startFakeRazorpay()]);
    client = createRazorpayClient({
      baseUrl: fake.url,
      keyId: FAKE_KEYS.keyId,
      keySecret: FAKE_KEYS.keySecret,
    });
  });
  afterAll(async () => {
    await Promise.all([test.close(), fake.close()]);
  });

  const options = () => ({ database: test.db, client });
  /** A person's checkout of a plan, through the one checkout every buyer takes. */
  const startCheckout = (
    user: { id: string; email: string },
    planId: Parameters<typeof proOrder>[1],
    opts: ReturnType<typeof options>,
  ) => startOrder(proOrder(user, planId), opts);
  const requestsTo = (method: string, prefix: string) =>
    fake.requests.filter((request) => request.method === method && request.path.startsWith(prefix));

  async function pay(subscriptionId: string, outcome: "success" | "failure", method = "card") {
    const response = await fetch(`${fake.url}/checkout/subscriptions/${subscriptionId}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key_id: FAKE_KEYS.keyId, method, outcome }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  async function charge(subscriptionId: string, fail = false) {
    const response = await fetch(`${fake.url}/control/subscriptions/${subscriptionId}/charge`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/json" },
      body: JSON.stringify({ fail }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { payment: { id: string } | null };
  }

  /** A signed webhook delivery built from the fake's current entities, as Razorpay sends them. */
  async function event(
    name: string,
    subscriptionId: string,
    paymentId?: string,
    createdAt = Math.floor(Date.now() / 1000),
  ) {
    const subscription = await client.fetchSubscription(subscriptionId);
    const payment = paymentId ? await client.fetchPayment(paymentId) : undefined;
    const body = JSON.stringify({
      entity: "event",
      account_id: "acc_Test",
      event: name,
      contains: payment ? ["subscription", "payment"] : ["subscription"],
      payload: {
        subscription: { entity: subscription },
        ...(payment ? { payment: { entity: payment } } : {}),
      },
      created_at: createdAt,
    });
    eventSeq += 1;
    return {
      rawBody: body,
      signature: webhookSignature(body, FAKE_KEYS.webhookSecret),
      eventId: `evt_Test${String(eventSeq).padStart(10, "0")}`,
    };
  }

  const receive = (delivery: {
    rawBody: string;
    signature: string | null;
    eventId: string | null;
  }) => receiveWebhook(delivery, { secret: FAKE_KEYS.webhookSecret, database: test.db });

  /** A buyer who paid at checkout, with the charge's webhook processed. */
  async function subscribed(email: string, plan: "pro-monthly" | "pro-yearly") {
    const userId = await insertUser(test.db, { email });
    const sub = await startCheckout({ id: userId, email }, plan, options());
    const paid = await pay(sub.providerSubscriptionId, "success");
    await receive(
      await event(
        "subscription.charged",
        sub.providerSubscriptionId,
        paid.body.razorpay_payment_id,
      ),
    );
    await processAll();
    return { userId, sub, paid };
  }

  async function processAll() {
    const pending = await test.db.select().from(jobs).where(eq(jobs.kind, PROCESS_WEBHOOK_JOB));
    for (const job of pending)
      await processWebhookEvent(String((job.payload as { eventId: string }).eventId), options());
  }

  it("syncs plans once, with Basic auth and the documented body", async () => {
    const first = await syncPlans(test.db, client);
    expect(first.map((plan) => [plan.planId, plan.created])).toEqual([
      ["pro-monthly", true],
      ["pro-yearly", true],
    ]);
    const creates = requestsTo("POST", "/v1/plans");
    expect(creates).toHaveLength(2);
    expect(creates.every((request) => request.authorization === basic)).toBe(true);
    expect(creates[0]?.body).toMatchObject({
      period: "monthly",
      interval: 1,
      item: { amount: 69_900, currency: "INR" },
      notes: { plan_id: "pro-monthly" },
    });
    expect(creates[1]?.body).toMatchObject({ period: "yearly", item: { amount: 699_900 } });
    expect(requestsTo("GET", "/v1/plans/")).toHaveLength(2);

    const again = await syncPlans(test.db, client);
    expect(again.map((plan) => plan.created)).toEqual([false, false]);
    expect(again.map((plan) => plan.providerPlanId)).toEqual(
      first.map((plan) => plan.providerPlanId),
    );
    expect(requestsTo("POST", "/v1/plans")).toHaveLength(2);
  });

  it("syncs each plan in every currency sold abroad at its set price, in that currency, once (issue 56)", async () => {
    const synced = await syncPlans(test.db, client, ["USD", "EUR"]);
    expect(synced.map((plan) => [plan.planId, plan.currency])).toEqual([
      ["pro-monthly", "INR"],
      ["pro-monthly", "USD"],
      ["pro-monthly", "EUR"],
      ["pro-yearly", "INR"],
      ["pro-yearly", "USD"],
      ["pro-yearly", "EUR"],
    ]);
    const bodies = requestsTo("POST", "/v1/plans").map(
      (request) =>
        (request.body as { item: { amount: number; currency: string; description?: string } }).item,
    );
    // The rupee plans were made by the test above; these are the four abroad, at site.ts's prices,
    // with no GST in their description.
    expect(bodies.slice(-4)).toEqual([
      { name: "Pinout Pro (monthly)", amount: 9_00, currency: "USD", description: "Pro (monthly)" },
      { name: "Pinout Pro (monthly)", amount: 8_50, currency: "EUR", description: "Pro (monthly)" },
      { name: "Pinout Pro (yearly)", amount: 89_00, currency: "USD", description: "Pro (yearly)" },
      { name: "Pinout Pro (yearly)", amount: 85_00, currency: "EUR", description: "Pro (yearly)" },
    ]);
    const again = await syncPlans(test.db, client, ["USD", "EUR"]);
    expect(again.every((plan) => !plan.created)).toBe(true);
    // A dollar plan is no rupee amount: a seat's charge is never read from one as paise.
    const usd = synced.find((plan) => plan.currency === "USD")!;
    expect(await providerPlanAmount(usd.providerPlanId, test.db)).toBeNull();
  });

  it("names the plan and currency when the account cannot charge abroad, and stores nothing for it", async () => {
    const closed = await startFakeRazorpay({ internationalPayments: false });
    try {
      const closedClient = createRazorpayClient({
        baseUrl: closed.url,
        keyId: FAKE_KEYS.keyId,
        keySecret: FAKE_KEYS.keySecret,
      });
      const other = await openTestDatabase();
      try {
        await expect(syncPlans(other.db, closedClient, ["EUR"])).rejects.toThrow(
          /^pro-monthly in EUR: .*International payments are not enabled for this account/,
        );
        const stored = await other.db.select().from(providerPlans);
        expect(stored.map((row) => row.currency)).toEqual(["INR"]);
      } finally {
        await other.close();
      }
    } finally {
      await closed.close();
    }
  });

  it("creates one subscription per buyer and reuses it while unpaid; a failed payment charges nothing", async () => {
    const userId = await insertUser(test.db, { email: "asha@example.com" });
    const user = { id: userId, email: "asha@example.com" };
    const first = await startCheckout(user, "pro-monthly", options());
    const [created] = requestsTo("POST", "/v1/subscriptions");
    expect(created?.authorization).toBe(basic);
    expect(created?.body).toMatchObject({
      total_count: 120,
      customer_notify: 1,
      notes: { user_id: userId, plan_id: "pro-monthly" },
    });

    expect((await pay(first.providerSubscriptionId, "failure")).status).toBe(400);
    const retry = await startCheckout(user, "pro-monthly", options());
    expect(retry.providerSubscriptionId).toBe(first.providerSubscriptionId);
    expect(requestsTo("POST", "/v1/subscriptions")).toHaveLength(1);

    // Choosing the other plan cancels the unpaid one instead of leaving two payable.
    const yearly = await startCheckout(user, "pro-yearly", options());
    expect(yearly.providerSubscriptionId).not.toBe(first.providerSubscriptionId);
    expect((await client.fetchSubscription(first.providerSubscriptionId)).status).toBe("cancelled");
    expect(
      requestsTo("POST", `/v1/subscriptions/${first.providerSubscriptionId}/cancel`)[0]?.body,
    ).toEqual({
      cancel_at_cycle_end: 0,
    });
    expect(await entitlementFor(userId, { database: test.db })).toMatchObject({ plan: "free" });
  });

  it("verifies the checkout signature against our record; a forged one changes nothing", async () => {
    const userId = await insertUser(test.db, { email: "bala@example.com" });
    const sub = await startCheckout(
      { id: userId, email: "bala@example.com" },
      "pro-monthly",
      options(),
    );
    const paid = await pay(sub.providerSubscriptionId, "success");
    expect(paid.status).toBe(200);
    const response = {
      razorpay_payment_id: paid.body.razorpay_payment_id!,
      razorpay_subscription_id: sub.providerSubscriptionId,
      razorpay_signature: paid.body.razorpay_signature!,
    };
    expect(response.razorpay_signature).toBe(
      checkoutSignature(
        response.razorpay_payment_id,
        sub.providerSubscriptionId,
        FAKE_KEYS.keySecret,
      ),
    );
    const forged = { ...response, razorpay_signature: "0".repeat(64) };
    expect(
      await verifyCheckout(personBuyer(userId), forged, {
        database: test.db,
        keySecret: FAKE_KEYS.keySecret,
      }),
    ).toBeNull();
    const otherUser = await insertUser(test.db, { email: "mallory@example.com" });
    expect(
      await verifyCheckout(personBuyer(otherUser), response, {
        database: test.db,
        keySecret: FAKE_KEYS.keySecret,
      }),
    ).toBeNull();
    const [before] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(before?.checkoutVerifiedAt).toBeNull();

    expect(
      await verifyCheckout(personBuyer(userId), response, {
        database: test.db,
        keySecret: FAKE_KEYS.keySecret,
      }),
    ).not.toBeNull();
    const [after] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after?.checkoutPaymentId).toBe(response.razorpay_payment_id);
    // The signature alone makes nobody Pro: Razorpay's state does.
    expect(after?.status).toBe("created");
    expect((await entitlementFor(userId, { database: test.db })).plan).toBe("free");
  });

  it("refuses a webhook with a missing or wrong signature and stores nothing", async () => {
    const userId = await insertUser(test.db, { email: "chitra@example.com" });
    const sub = await startCheckout(
      { id: userId, email: "chitra@example.com" },
      "pro-monthly",
      options(),
    );
    const delivery = await event("subscription.updated", sub.providerSubscriptionId);
    const before = (await test.db.select().from(webhookEvents)).length;
    expect(await receive({ ...delivery, signature: null })).toMatchObject({ status: 400 });
    expect(await receive({ ...delivery, signature: "ab".repeat(32) })).toMatchObject({
      status: 400,
    });
    expect(
      await receive({
        ...delivery,
        signature: webhookSignature(delivery.rawBody, FAKE_KEYS.keySecret),
      }),
    ).toMatchObject({ status: 400 });
    expect(
      await receive({ ...delivery, rawBody: delivery.rawBody.replace("acc_Test", "acc_Tesu") }),
    ).toMatchObject({
      status: 400,
    });
    expect(await test.db.select().from(webhookEvents)).toHaveLength(before);
  });

  it("processes an event delivered five times at once exactly once", async () => {
    const userId = await insertUser(test.db, { email: "dev@example.com" });
    const sub = await startCheckout(
      { id: userId, email: "dev@example.com" },
      "pro-monthly",
      options(),
    );
    const paid = await pay(sub.providerSubscriptionId, "success");
    const delivery = await event(
      "subscription.charged",
      sub.providerSubscriptionId,
      paid.body.razorpay_payment_id,
    );
    const results = await Promise.all(Array.from({ length: 5 }, () => receive(delivery)));
    expect(
      results.filter((result) => result.status === 200 && result.outcome === "stored"),
    ).toHaveLength(1);
    expect(
      results.filter((result) => result.status === 200 && result.outcome === "duplicate"),
    ).toHaveLength(4);
    await Promise.all(
      Array.from({ length: 5 }, () => processWebhookEvent(delivery.eventId, options())),
    );
    const [stored] = await test.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.eventId, delivery.eventId));
    expect(stored?.processCount).toBe(1);
    const rows = await test.db.select().from(payments).where(eq(payments.subscriptionId, sub.id));
    expect(rows.map((row) => [row.amountPaise, row.status, row.cardLast4])).toEqual([
      [69_900, "captured", "4366"],
    ]);
    expect(await entitlementFor(userId, { database: test.db })).toMatchObject({
      plan: "pro-monthly",
      device_limit: 3,
    });
  });

  it("ends in Razorpay's state whatever order events arrive in", async () => {
    const userId = await insertUser(test.db, { email: "esha@example.com" });
    const sub = await startCheckout(
      { id: userId, email: "esha@example.com" },
      "pro-monthly",
      options(),
    );
    const paid = await pay(sub.providerSubscriptionId, "success");
    const activated = await event(
      "subscription.activated",
      sub.providerSubscriptionId,
      undefined,
      1_000,
    );
    const charged = await event(
      "subscription.charged",
      sub.providerSubscriptionId,
      paid.body.razorpay_payment_id,
    );
    await client.cancelSubscription(sub.providerSubscriptionId, false);
    const cancelled = await event("subscription.cancelled", sub.providerSubscriptionId);
    // Newest first, the stale "activated" last.
    for (const delivery of [cancelled, charged, activated]) {
      expect(await receive(delivery)).toMatchObject({ status: 200 });
      await processAll();
    }
    const [row] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row?.status).toBe("cancelled");
    expect(
      await test.db.select().from(payments).where(eq(payments.subscriptionId, sub.id)),
    ).toHaveLength(1);
  });

  it("cancels at the end of the period: Pro until then, Free after; undo keeps it", async () => {
    const { userId, sub } = await subscribed("farah@example.com", "pro-monthly");

    const cancelled = await cancelAtPeriodEnd(personBuyer(userId), "too expensive", options());
    expect(
      requestsTo("POST", `/v1/subscriptions/${sub.providerSubscriptionId}/cancel`).at(-1)?.body,
    ).toEqual({
      cancel_at_cycle_end: 1,
    });
    expect(cancelled).toMatchObject({
      status: "active",
      cancelAtCycleEnd: true,
      cancelReason: "too expensive",
    });
    const end = cancelled.currentEnd!;
    expect((await entitlementFor(userId, { database: test.db })).plan).toBe("pro-monthly");

    const endReason = async () =>
      (await test.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id)))[0]
        ?.endReason;
    expect(await endReason()).toBe("customer");
    const kept = await undoCancellation(personBuyer(userId), options());
    expect(kept.cancelAtCycleEnd).toBe(false);
    expect(await endReason()).toBeNull();
    // Each change a person makes is mailed once: cancelled, then "continues" (issue 20, point 4).
    const mailsOf = async () =>
      (await test.db.select().from(jobs).where(eq(jobs.kind, BILLING_MAIL_JOB)))
        .map((job) => job.payload as { template: string; subscriptionId: string })
        .filter((payload) => payload.subscriptionId === sub.id)
        .map((payload) => payload.template);
    expect(await mailsOf()).toEqual(expect.arrayContaining(["cancelled", "resumed"]));
    expect((await mailsOf()).filter((template) => template === "resumed")).toHaveLength(1);
    await undoCancellation(personBuyer(userId), options());
    expect((await mailsOf()).filter((template) => template === "resumed")).toHaveLength(1);
    expect((await client.fetchSubscription(sub.providerSubscriptionId)).has_scheduled_changes).toBe(
      false,
    );

    await cancelAtPeriodEnd(personBuyer(userId), null, options());
    expect((await mailsOf()).filter((template) => template === "cancelled")).toHaveLength(2);
    // Razorpay ends it at the cycle end; in between the account is still Pro.
    await client.fetchSubscription(sub.providerSubscriptionId);
    const atEnd = { database: test.db, now: new Date(end.getTime() - 1000) };
    expect((await entitlementFor(userId, atEnd)).plan).toBe("pro-monthly");
    await charge(sub.providerSubscriptionId);
    await receive(await event("subscription.cancelled", sub.providerSubscriptionId));
    await processAll();
    const [row] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row).toMatchObject({ status: "cancelled", endReason: "customer" });
    expect(
      (await entitlementFor(userId, { database: test.db, now: new Date(end.getTime() + 1000) }))
        .plan,
    ).toBe("free");
  });

  it("switches monthly → yearly at the end of the period, without a second charge now", async () => {
    const userId = await insertUser(test.db, { email: "gopal@example.com" });
    const user = { id: userId, email: "gopal@example.com" };
    const monthly = await startCheckout(user, "pro-monthly", options());
    const paid = await pay(monthly.providerSubscriptionId, "success", "upi");
    await receive(
      await event(
        "subscription.charged",
        monthly.providerSubscriptionId,
        paid.body.razorpay_payment_id,
      ),
    );
    await processAll();

    const { current, next } = await startPlanSwitch(user, "pro-yearly", options());
    expect(current.providerSubscriptionId).toBe(monthly.providerSubscriptionId);
    const created = requestsTo("POST", "/v1/subscriptions").at(-1);
    expect(created?.body).toMatchObject({
      start_at: Math.floor(current.currentEnd!.getTime() / 1000),
      notes: { plan_id: "pro-yearly", replaces: monthly.providerSubscriptionId },
    });
    // Asking again before authorising reuses the same unpaid subscription.
    const again = await startPlanSwitch(user, "pro-yearly", options());
    expect(again.next.providerSubscriptionId).toBe(next.providerSubscriptionId);

    // The buyer authorises the new mandate; nothing is charged until it starts.
    expect((await pay(next.providerSubscriptionId, "success", "upi")).status).toBe(200);
    await receive(await event("subscription.authenticated", next.providerSubscriptionId));
    await processAll();
    const [finish] = await test.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `switch:${next.id}`));
    expect(finish?.kind).toBe(FINISH_SWITCH_JOB);
    await finishSwitch(finish!.payload as { subscriptionId: string }, options());
    // Once one is authorised, another switch is refused.
    await expect(startPlanSwitch(user, "pro-yearly", options())).rejects.toThrow(
      /already scheduled/,
    );

    const old = await client.fetchSubscription(monthly.providerSubscriptionId);
    expect(old).toMatchObject({
      status: "active",
      has_scheduled_changes: true,
      change_scheduled_at: old.current_end,
    });
    const captured = (
      await test.db.select().from(payments).where(eq(payments.userId, userId))
    ).filter((payment) => payment.status === "captured");
    expect(captured.map((payment) => payment.amountPaise)).toEqual([69_900]);

    const overview = await billingOverview(personBuyer(userId), test.db);
    expect(overview.subscription).toMatchObject({
      planId: "pro-monthly",
      cancelAtCycleEnd: true,
      nextChargeAt: null,
    });
    expect(overview.switchTo).toMatchObject({
      planId: "pro-yearly",
      startsAt: current.currentEnd!.toISOString(),
    });
    // A switch is not a cancellation: the state says what happens on which (India) day.
    expect(overview.subscription?.statusText).toBe(
      `Switching to Pro (yearly) on ${formatDate(current.currentEnd!.toISOString())}`,
    );
    const mails = await test.db.select().from(jobs).where(eq(jobs.kind, BILLING_MAIL_JOB));
    expect(mails.some((job) => job.dedupeKey === `mail:plan-change:${next.id}:scheduled`)).toBe(
      true,
    );
    expect((await entitlementFor(userId, { database: test.db })).plan).not.toBe("free");

    // Staying on the current plan drops the switch, so only one subscription renews, and says so.
    const endReasonOf = async (id: string) =>
      (await test.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]?.endReason;
    expect(await endReasonOf(current.id)).toBe("switched");
    const [scheduledRow] = await test.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, next.id));
    expect(statusText(scheduledRow!)).toBe("Switch scheduled: starts when the current plan ends");
    const stayed = await withdrawSwitch(personBuyer(userId), options());
    expect(stayed.withdrawn?.id).toBe(next.id);
    expect(stayed.current.cancelAtCycleEnd).toBe(false);
    // Why each ended, recorded: the kept one runs on; the withdrawn switch was never paid, and
    // reads so (not as a customer who cancelled Pro yearly).
    expect(await endReasonOf(current.id)).toBeNull();
    expect(await endReasonOf(next.id)).toBe("abandoned");
    const [withdrawnRow] = await test.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, next.id));
    // A switch withdrawn is a switch, not a cancelled Pro (yearly) (issue 33, point 8).
    expect(statusText(withdrawnRow!)).toBe(
      "Switch withdrawn before it started: nothing was charged",
    );
    expect(statusText({ ...withdrawnRow!, replacesSubscriptionId: null })).toBe(
      "Cancelled before it was paid",
    );
    expect((await withdrawSwitch(personBuyer(userId), options())).withdrawn).toBeNull();
    const withdrawnMails = (
      await test.db.select().from(jobs).where(eq(jobs.kind, BILLING_MAIL_JOB))
    ).filter((job) => job.dedupeKey?.startsWith("mail:switch-withdrawn:"));
    expect(withdrawnMails.map((job) => job.dedupeKey)).toEqual([
      `mail:switch-withdrawn:${next.id}:withdrawn`,
    ]);
    // The switch job, if it runs late, leaves the kept plan alone.
    await finishSwitch(finish!.payload as { subscriptionId: string }, options());
    expect((await client.fetchSubscription(next.providerSubscriptionId)).status).toBe("cancelled");
    expect(
      (await client.fetchSubscription(monthly.providerSubscriptionId)).has_scheduled_changes,
    ).toBe(false);
    expect((await billingOverview(personBuyer(userId), test.db)).switchTo).toBeNull();
  });

  it("schedules a yearly renewal reminder a week before the charge", async () => {
    const { sub } = await subscribed("hema@example.com", "pro-yearly");
    const [row] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    const [reminder] = await test.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `mail:renewal-reminder:${sub.id}:${row!.chargeAt!.toISOString()}`));
    expect(reminder?.runAt.getTime()).toBe(row!.chargeAt!.getTime() - 7 * 86_400_000);
  });

  it("cancels every subscription that could still charge before an account is deleted", async () => {
    const userId = await insertUser(test.db, { email: "ira@example.com" });
    const paidSub = await startCheckout(
      { id: userId, email: "ira@example.com" },
      "pro-monthly",
      options(),
    );
    await pay(paidSub.providerSubscriptionId, "success");
    expect(await cancelEverythingFor(userId, options())).toBe(1);
    expect((await client.fetchSubscription(paidSub.providerSubscriptionId)).status).toBe(
      "cancelled",
    );
    expect(await cancelEverythingFor(userId, options())).toBe(0);
  });

  it("fetches and refunds through the documented endpoints, and an admin refund is audited", async () => {
    const { userId, sub, paid } = await subscribed("jaya@example.com", "pro-monthly");
    expect(
      requestsTo("GET", `/v1/subscriptions/${sub.providerSubscriptionId}`).every(
        (r) => r.authorization === basic,
      ),
    ).toBe(true);
    expect(
      requestsTo("GET", `/v1/subscriptions/${sub.providerSubscriptionId}`).length,
    ).toBeGreaterThan(0);

    const admin = {
      id: "session-1",
      user: {
        id: "admin-1",
        email: "ops@example.com",
        name: "Ops",
        role: "admin" as const,
        emailVerified: true,
      },
    };
    const paymentId = paid.body.razorpay_payment_id!;
    // Step one shows what will happen; nothing is stored or sent.
    const review = await reviewRefund(admin, userId, { paymentId, amountPaise: 10_000 }, options());
    expect(review).toMatchObject({
      amountPaise: 10_000,
      paidPaise: 69_900,
      refundablePaise: 69_900,
      creditNote: { totalPaise: 10_000, taxablePaise: 8_474, taxPaise: 1_526 },
    });
    expect(review.creditNote?.against).toMatch(/^PL\/\d{2}-\d{2}\/\d+$/);
    expect(requestsTo("POST", `/v1/payments/${paymentId}/refund`)).toEqual([]);
    // An empty amount is everything left, shown as such before it is confirmed.
    expect(
      (await reviewRefund(admin, userId, { paymentId, amountPaise: null }, options())).amountPaise,
    ).toBe(69_900);

    // Step two stores the request and its audit row before Razorpay is called; twice is once.
    const request = { paymentId, amountPaise: 10_000, reason: "Outage", key: review.key };
    expect(await requestRefund(admin, userId, request, options())).toEqual({ queued: true });
    expect(await requestRefund(admin, userId, request, options())).toEqual({ queued: false });
    const requested = await test.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetUserId, userId));
    expect(requested.map((entry) => entry.action)).toEqual(["payment.refund.requested"]);
    expect(requestsTo("POST", `/v1/payments/${paymentId}/refund`)).toEqual([]);
    // Requested refunds count: what is left is less by this one until it is made.
    await expect(
      reviewRefund(admin, userId, { paymentId, amountPaise: 69_900 }, options()),
    ).rejects.toThrow(/what is left \(₹599\)/);

    // The job, run twice (a retry after a crash): one refund at Razorpay, by the request's key.
    const [job] = await test.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `refund:${review.key}`));
    expect(job?.kind).toBe(REFUND_JOB);
    const payload = refundJob.payload.parse(job!.payload);
    const first = await makeRefund(payload, options());
    const second = await makeRefund(payload, options());
    expect(second.refundId).toBe(first.refundId);
    expect(first.creditNoteNumber).toMatch(/^PL\/CN\//);
    const calls = requestsTo("POST", `/v1/payments/${paymentId}/refund`);
    expect(calls.map((call) => call.idempotencyKey)).toEqual([review.key, review.key]);
    expect(calls[0]?.authorization).toBe(basic);
    expect(calls[0]?.body).toMatchObject({
      amount: 10_000,
      speed: "normal",
      notes: { reason: "Outage", request: review.key },
    });
    expect((await client.fetchPayment(paymentId)).amount_refunded).toBe(10_000);
    const [row] = await test.db
      .select()
      .from(payments)
      .where(eq(payments.providerPaymentId, paymentId));
    expect(row?.amountRefundedPaise).toBe(10_000);
    const refundMails = (
      await test.db.select().from(jobs).where(eq(jobs.kind, BILLING_MAIL_JOB))
    ).filter((mail) => mail.dedupeKey?.startsWith("mail:refunded:"));
    expect(refundMails).toHaveLength(1);

    await expect(
      reviewRefund(admin, userId, { paymentId, amountPaise: 69_900 }, options()),
    ).rejects.toThrow(/what is left/);
    const notAdmin = { ...admin, user: { ...admin.user, role: "user" as const } };
    await expect(
      reviewRefund(notAdmin, userId, { paymentId, amountPaise: 100 }, options()),
    ).rejects.toThrow(/administrators/);
    await expect(requestRefund(notAdmin, userId, request, options())).rejects.toThrow(
      /administrators/,
    );
    const entries = await test.db.select().from(auditLog).where(eq(auditLog.targetUserId, userId));
    expect(entries.map((entry) => [entry.action, entry.actorEmail, entry.reason])).toEqual([
      ["payment.refund.requested", "ops@example.com", "Outage"],
      ["payment.refund", "ops@example.com", "Outage"],
    ]);
  });

  /** A buyer whose Pro was halted after three failed renewals, as the site has recorded it. */
  async function haltedBuyer(email: string) {
    const userId = await insertUser(test.db, { email });
    const user = { id: userId, email };
    const first = await startCheckout(user, "pro-monthly", options());
    await pay(first.providerSubscriptionId, "success");
    for (let attempt = 0; attempt < 3; attempt += 1)
      await charge(first.providerSubscriptionId, true);
    await receive(await event("subscription.halted", first.providerSubscriptionId));
    await processAll();
    return { userId, user, first };
  }

  it("restarting Pro after a halt cancels the halted subscription", async () => {
    const { userId, user, first } = await haltedBuyer("kavya@example.com");
    expect((await entitlementFor(userId, { database: test.db })).plan).toBe("free");

    const second = await startCheckout(user, "pro-monthly", options());
    expect(second.providerSubscriptionId).not.toBe(first.providerSubscriptionId);
    const paid = await pay(second.providerSubscriptionId, "success");
    await receive(
      await event(
        "subscription.charged",
        second.providerSubscriptionId,
        paid.body.razorpay_payment_id,
      ),
    );
    await processAll();
    const [job] = await test.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `retire-halted:${second.id}`));
    expect(job?.kind).toBe(RETIRE_HALTED_JOB);
    expect(await retireHalted(job!.payload as { subscriptionId: string }, options())).toBe(1);
    expect((await client.fetchSubscription(first.providerSubscriptionId)).status).toBe("cancelled");
    expect((await entitlementFor(userId, { database: test.db })).plan).toBe("pro-monthly");
  });

  it("never cancels a halted subscription that Razorpay says the customer reactivated meanwhile", async () => {
    const { user, first } = await haltedBuyer("reactivated@example.com");
    const second = await startCheckout(user, "pro-monthly", options());
    await pay(second.providerSubscriptionId, "success");
    // The customer pays the halted one after all; its webhook has not arrived yet.
    await charge(first.providerSubscriptionId);
    expect((await client.fetchSubscription(first.providerSubscriptionId)).status).toBe("active");
    expect(await retireHalted({ subscriptionId: second.id }, options())).toBe(0);
    expect((await client.fetchSubscription(first.providerSubscriptionId)).status).toBe("active");
    const [row] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, first.id));
    expect(row?.status).toBe("active");
  });

  it("invoices a charge processed late for the period it paid for, not the current one", async () => {
    const { userId } = await subscribed("late-invoice@example.com", "pro-monthly");
    const [row] = await test.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    const id = row!.providerSubscriptionId;
    // The second period's charge; its webhook is delayed (retries, a stall)…
    const second = (await charge(id)).payment!.id;
    const late = await event("subscription.charged", id, second);
    // …until after the third period's charge has moved the subscription on.
    await charge(id);
    await receive(late);
    await processAll();
    const paid = await client.fetchPayment(second);
    const billed = await client.fetchInvoice(paid.invoice_id!);
    const invoice = await invoiceForPayment(test.db, second);
    const line = invoice!.document.lines[0]!;
    expect(line.periodStart).toBe(istDay(new Date(billed.billing_start! * 1000)));
    expect(line.periodEnd).toBe(istDay(new Date(billed.billing_end! * 1000 - 86_400_000)));
    const current = await client.fetchSubscription(id);
    expect(line.periodStart).not.toBe(istDay(new Date(current.current_start! * 1000)));
  });

  // Issue 32, point 6's class: the "what is left" check is queueRefund's own, so the duplicate
  // guard and an operator cannot both take the last of a payment with different keys.
  it("queues refunds of one payment only while something is left, whoever asks", async () => {
    const { paid } = await subscribed("refund-class@example.com", "pro-monthly");
    const paymentId = paid.body.razorpay_payment_id ?? "";
    const ask = (key: string, amountPaise: number) =>
      test.db.transaction((tx) =>
        queueRefund(tx, {
          paymentId,
          amountPaise,
          reason: "test",
          key,
          actor: { id: null, email: "system" },
          targetUserId: null,
        }),
      );
    const outcomes = await Promise.allSettled([
      ask("rf_dup_class_000001", 69_900),
      ask("rf_operator_class_01", 69_900),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === "rejected");
    expect(String((refused as PromiseRejectedResult).reason)).toContain(
      "Nothing is left to refund",
    );
    // The same key again is the same request: stored once, no error.
    const winner =
      outcomes[0]?.status === "fulfilled" ? "rf_dup_class_000001" : "rf_operator_class_01";
    expect(await ask(winner, 69_900)).toBe(false);
    expect(await refundableLeft(test.db, paymentId)).toBe(0);
    // A part of what is left is still refundable, up to it.
    await expect(ask("rf_more_class_00001", 100)).rejects.toThrow(/Nothing is left/);
  });

  // Issue 32, "also close": an active subscription whose webhooks stopped stayed Pro for ever.
  it("resyncs a running subscription nothing has updated for a day past its charge date", async () => {
    const { userId, sub } = await subscribed("stale@example.com", "pro-monthly");
    // Cancelled at Razorpay, and the webhook never came.
    await client.cancelSubscription(sub.providerSubscriptionId, false);
    const [row] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row?.status).toBe("active");
    // Its charge date two days gone (as if the renewal's webhooks were lost too).
    const now = new Date();
    const twoDaysAgo = new Date(now.getTime() - 2 * 86_400_000);
    await test.db
      .update(subscriptions)
      .set({ currentEnd: twoDaysAgo, chargeAt: twoDaysAgo })
      .where(eq(subscriptions.id, sub.id));
    // Other tests' subscriptions share this database: look for this one's job only.
    const key = `stale-resync:${sub.id}:${now.toISOString().slice(0, 10)}`;
    const jobOf = async () => (await test.db.select().from(jobs).where(eq(jobs.dedupeKey, key)))[0];
    // Synced an hour ago: not stale yet.
    await test.db
      .update(subscriptions)
      .set({ syncedAt: new Date(now.getTime() - 3_600_000) })
      .where(eq(subscriptions.id, sub.id));
    await queueStaleResyncs(test.db, now);
    expect(await jobOf()).toBeUndefined();
    await test.db
      .update(subscriptions)
      .set({ syncedAt: twoDaysAgo })
      .where(eq(subscriptions.id, sub.id));
    await queueStaleResyncs(test.db, now);
    const job = await jobOf();
    // Once a day per subscription, however many instances and hours ask.
    expect(await queueStaleResyncs(test.db, now)).toBe(0);
    expect(job?.kind).toBe(RESYNC_JOB);
    await resyncFromProvider(sub.providerSubscriptionId, options());
    const [after] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after?.status).toBe("cancelled");
    // Cancelled at Razorpay without us: the period it paid for, and nothing after it.
    const entitlement = await entitlementFor(userId, { database: test.db, now });
    expect(entitlement.expires_at).toBe(after?.currentEnd?.toISOString() ?? null);
  });

  // Issue 32, "also close": jobs and webhook_events were never pruned.
  it("prunes finished jobs and processed webhooks past their retention, and still deduplicates them", async () => {
    const { sub } = await subscribed("retention@example.com", "pro-monthly");
    const delivery = await event("subscription.charged", sub.providerSubscriptionId);
    expect(await receive(delivery)).toMatchObject({ outcome: "stored" });
    await processAll();
    const later = new Date(Date.now() + 400 * 86_400_000);
    const countOf = async () => ({
      jobs: (await test.db.select({ id: jobs.id }).from(jobs)).length,
      webhooks: (await test.db.select({ id: webhookEvents.eventId }).from(webhookEvents)).length,
    });
    // Every job here is finished (the queue is worked by hand in these tests) or waiting.
    await test.db
      .update(jobs)
      .set({ completedAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(jobs.kind, PROCESS_WEBHOOK_JOB));
    await test.db
      .update(webhookEvents)
      .set({ processedAt: new Date(Date.now() - 91 * 86_400_000) });
    const before = await countOf();
    const pruned = await pruneQueueAndWebhooks(test.db);
    expect(pruned.completedJobs).toBeGreaterThan(0);
    expect(pruned.webhookBodies).toBe(before.webhooks);
    expect((await countOf()).webhooks).toBe(0);
    // The same delivery again (its event id), and the same signed body under a new id: both are
    // still duplicates, though their rows are gone.
    expect(await receive(delivery)).toMatchObject({ outcome: "duplicate" });
    expect(await receive({ ...delivery, eventId: "evt_replayed_000001" })).toMatchObject({
      outcome: "duplicate",
    });
    expect(await enqueueJob(test.db, { kind: "test.waiting", dedupeKey: "waiting:none" })).toBe(
      true,
    );
    expect(await enqueueJob(test.db, { kind: "test.waiting", dedupeKey: "waiting:none" })).toBe(
      false,
    );
    // 400 days on, the keys and ids of work long gone go too; a waiting job keeps its key.
    const gone = await pruneQueueAndWebhooks(test.db, later);
    expect(gone.dedupeKeys).toBeGreaterThan(0);
    expect(gone.webhookIds).toBeGreaterThan(0);
    expect(await dedupeKeyTaken(test.db, "waiting:none")).toBe(true);
  });

  // Issue 33: payment.failed names no subscription, so a failed renewal was stored unlinked and
  // missing from the customer's payments on /admin-fix-subscription.
  it("links a failed renewal's payment to its subscription and customer through its invoice", async () => {
    const { userId, sub } = await subscribed("failed-renewal@example.com", "pro-monthly");
    const failed = (await charge(sub.providerSubscriptionId, true)).payment!.id;
    const payment = await client.fetchPayment(failed);
    const body = JSON.stringify({
      entity: "event",
      account_id: "acc_Test",
      event: "payment.failed",
      contains: ["payment"],
      payload: { payment: { entity: payment } },
      created_at: Math.floor(Date.now() / 1000),
    });
    expect(
      await receive({
        rawBody: body,
        signature: webhookSignature(body, FAKE_KEYS.webhookSecret),
        eventId: "evt_TestFailedRenewal1",
      }),
    ).toMatchObject({ outcome: "stored" });
    await processAll();
    const [row] = await test.db
      .select()
      .from(payments)
      .where(eq(payments.providerPaymentId, failed));
    expect(row).toMatchObject({ status: "failed", subscriptionId: sub.id, userId });
  });
});
