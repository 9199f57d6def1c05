/**
 * Two app instances on one PostgreSQL, both in real-provider mode against a fake Razorpay, receive
 * the same webhooks at the same time: each payment is stored once, each event processed once.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../support/auth";
import { eventually } from "../support/eventually";
import { postWebhook, signedWebhook } from "../support/billing";
import { createDatabase } from "../support/engines";
import { FAKE_KEYS, type FakeRazorpay, startFakeRazorpay } from "../support/fake-razorpay";
import { type RunningTestServer, startServer } from "../support/server";
import { inject } from "vitest";

const postgresUrl = inject("postgresUrl");
const basic = `Basic ${Buffer.from(`${FAKE_KEYS.keyId}:${FAKE_KEYS.keySecret}`).toString("base64")}`;

// PostgreSQL is required in CI (global setup fails without it), so this never silently skips there.
describe.runIf(postgresUrl)("two instances on one PostgreSQL", () => {
  let fake: FakeRazorpay;
  let databaseUrl: string;
  let servers: RunningTestServer[] = [];
  let client: pg.Client;

  const rest = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${fake.url}${path}`, {
      method,
      headers: { authorization: basic, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}`).toBe(200);
    return (await response.json()) as Record<string, unknown> & { id: string };
  };

  beforeAll(async () => {
    fake = await startFakeRazorpay();
    databaseUrl = await createDatabase(postgresUrl);
    const env = {
      DATABASE_URL: databaseUrl,
      PAYMENTS_PROVIDER: "razorpay",
      RAZORPAY_API_URL: fake.url,
      RAZORPAY_KEY_ID: FAKE_KEYS.keyId,
      RAZORPAY_KEY_SECRET: FAKE_KEYS.keySecret,
      RAZORPAY_WEBHOOK_SECRET: FAKE_KEYS.webhookSecret,
      AUTH_RATE_LIMIT: "100",
    };
    // One after the other: the first applies the migrations.
    servers = [await startServer({ env })];
    servers.push(await startServer({ env }));
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await Promise.all(servers.map((server) => server.stop()));
    await fake?.close();
  });

  it("in razorpay mode, never mounts the sandbox", async () => {
    const [first] = servers;
    expect((await fetch(`${first!.url}/_sandbox/razorpay/checkout.js`)).status).toBe(404);
  });

  it("stores each payment once and processes each event once", async () => {
    const [a, b] = servers as [RunningTestServer, RunningTestServer];
    await signUpVerified(a, {
      name: "Twin",
      email: "twin@example.com",
      password: "two-instances-password",
    });
    const {
      rows: [user],
    } = await client.query<{ id: string }>(
      "select id from \"user\" where email = 'twin@example.com'",
    );
    const plan = await rest("POST", "/v1/plans", {
      period: "monthly",
      interval: 1,
      item: { name: "Pro (monthly)", amount: 69_900, currency: "INR" },
      notes: { plan_id: "pro-monthly" },
    });
    const subscription = await rest("POST", "/v1/subscriptions", {
      plan_id: plan.id,
      total_count: 12,
      notes: { user_id: user!.id, plan_id: "pro-monthly" },
    });
    const pay = await fetch(`${fake.url}/checkout/subscriptions/${subscription.id}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key_id: FAKE_KEYS.keyId, method: "card", outcome: "success" }),
    });
    const { razorpay_payment_id: paymentId } = (await pay.json()) as {
      razorpay_payment_id: string;
    };
    const charges = [paymentId];
    for (let renewal = 0; renewal < 3; renewal += 1) {
      const charged = await fetch(`${fake.url}/control/subscriptions/${subscription.id}/charge`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/json" },
        body: JSON.stringify({}),
      });
      charges.push(((await charged.json()) as { payment: { id: string } }).payment.id);
    }
    const current = await rest("GET", `/v1/subscriptions/${subscription.id}`);
    const deliveries = [];
    for (const id of charges) {
      const payment = await rest("GET", `/v1/payments/${id}`);
      deliveries.push(
        signedWebhook(
          JSON.stringify({
            entity: "event",
            event: "subscription.charged",
            contains: ["subscription", "payment"],
            payload: { subscription: { entity: current }, payment: { entity: payment } },
            created_at: Math.floor(Date.now() / 1000),
          }),
          FAKE_KEYS.webhookSecret,
        ),
      );
    }
    // Every event three times to each instance, all at once.
    const sends = deliveries.flatMap((delivery) =>
      [a, b, a, b, a, b].map((server) =>
        postWebhook(server.url, delivery).then((response) => response.status),
      ),
    );
    expect(new Set(await Promise.all(sends))).toEqual(new Set([200]));

    await eventually(async () => {
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from webhook_events where processed_at is not null",
      );
      return rows[0]!.n === deliveries.length ? true : undefined;
    });
    const { rows: paymentRows } = await client.query<{ provider_payment_id: string }>(
      "select provider_payment_id from payments order by provider_payment_id",
    );
    expect(paymentRows.map((row) => row.provider_payment_id)).toEqual([...charges].sort());
    const { rows: events } = await client.query<{ process_count: number }>(
      "select process_count from webhook_events",
    );
    expect(events.map((row) => row.process_count)).toEqual(deliveries.map(() => 1));
    const { rows: mails } = await client.query<{ n: number }>(
      "select count(*)::int as n from jobs where kind = 'mail.billing' and dedupe_key like 'mail:payment-received:%'",
    );
    expect(mails[0]!.n).toBe(charges.length);
    const { rows: subs } = await client.query<{ status: string; paid_count: number }>(
      "select status, paid_count from subscriptions",
    );
    expect(subs).toEqual([{ status: "active", paid_count: 4 }]);
    // One tax invoice per payment, numbered 1..4 with no gap although two instances issued them.
    const { rows: issued } = await client.query<{ sequence: number; provider_payment_id: string }>(
      "select sequence, provider_payment_id from invoices where kind = 'invoice' order by sequence",
    );
    expect(issued.map((row) => row.sequence)).toEqual([1, 2, 3, 4]);
    expect(issued.map((row) => row.provider_payment_id).sort()).toEqual([...charges].sort());
  });
});
