/**
 * Issue 53, finding 15: a payment whose webhook is lost. Razorpay's deliveries are held (the
 * site's webhook endpoint unreachable), the buyer pays, and the checkout's resync, which used to
 * read only the subscription, records the payment with its invoice, receipt mail and refund
 * offer, through the webhook's own code path. A second resync and the webhooks arriving late
 * record nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import { eventually } from "../support/eventually";
import { pageText } from "../support/pages";
import { sandboxApi, sandboxPay, startCheckout } from "../support/billing";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "missed-payment-password-1";

describe.each(engines())("a payment whose webhook is lost on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await sandboxApi(server.url, "/control/webhooks/hold", {
      method: "POST",
      body: JSON.stringify({ hold: false }),
    }).catch(() => undefined);
    await server?.stop();
  });

  const holdWebhooks = (hold: boolean) =>
    sandboxApi<{ hold: boolean }>(server.url, "/control/webhooks/hold", {
      method: "POST",
      body: JSON.stringify({ hold }),
    });
  const recorded = async (subscriptionId: string) => {
    const rows = await server.sql(
      `select p.provider_payment_id, p.amount_paise, p.status,
              (select count(*) from invoices i where i.provider_payment_id = p.provider_payment_id
                  and i.kind = 'invoice') as invoices
         from payments p join subscriptions s on s.id = p.subscription_id
        where s.provider_subscription_id = '${subscriptionId}'`,
    );
    return rows.map((row) => ({
      id: String(row.provider_payment_id),
      amount: Number(row.amount_paise),
      status: String(row.status),
      invoices: Number(row.invoices),
    }));
  };
  const receipts = (email: string) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && mail.subject.startsWith("Payment received: ₹699"),
    );

  it("finding 15: the resync records a payment whose webhook never came, once, with its invoice, receipt and refund offer", async () => {
    const email = "lost-webhook@example.com";
    const cookie = await signUpVerified(server, { name: "Kiran", email, password: PASSWORD });
    expect((await holdWebhooks(true)).hold).toBe(true);

    const started = await startCheckout(server, cookie, "pro-monthly");
    expect(started.status, started.body).toBe(200);
    const subscriptionId = started.subscriptionId!;
    const paid = await sandboxPay(server, subscriptionId, "success");
    expect(paid.status).toBe(200);
    const paymentId = paid.body.razorpay_payment_id!;
    // The handler's answer reaches the site; that queues the resync. No webhook comes.
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    await server.jobsSettled();

    const webhooks = await sandboxApi<{ items: { status: string }[] }>(
      server.url,
      "/control/webhooks",
    );
    expect(webhooks.items.length).toBeGreaterThan(0);
    expect(webhooks.items.every((item) => item.status === "held")).toBe(true);
    expect(await pageText(server, "/account", cookie)).toMatch(/Plan Pro/);
    const once = [{ id: paymentId, amount: 69_900, status: "captured", invoices: 1 }];
    expect(await recorded(subscriptionId)).toEqual(once);
    expect(receipts(email)).toHaveLength(1);
    expect(await pageText(server, "/account/subscription?refund=review", cookie)).toContain(
      "₹699 goes back to",
    );

    // The customer's own "Check with Razorpay" resyncs again: nothing more.
    const again = await postForm(server, "/fix-subscription", cookie, { intent: "resync" });
    expect(again.status).toBe(200);
    await server.jobsSettled();
    expect(await recorded(subscriptionId)).toEqual(once);

    // The endpoint is back: Razorpay's held webhooks arrive late, and change nothing.
    await holdWebhooks(false);
    await server.jobsSettled();
    await eventually(
      async () =>
        (
          await sandboxApi<{ items: { status: string }[] }>(server.url, "/control/webhooks")
        ).items.every((item) => item.status === "delivered"),
      20_000,
      "the held webhooks delivered",
    );
    await server.jobsSettled();
    expect(await recorded(subscriptionId)).toEqual(once);
    expect(receipts(email)).toHaveLength(1);
  });

  it("finding 15: a checkout whose confirmation and webhook both never came is found by the stale check", async () => {
    const email = "lost-everything@example.com";
    const cookie = await signUpVerified(server, { name: "Anu", email, password: PASSWORD });
    await holdWebhooks(true);
    // Someone else's checkout abandoned two days ago: not asked about any more.
    const walkedAway = await signUpVerified(server, {
      name: "Dev",
      email: "walked-away@example.com",
      password: PASSWORD,
    });
    const abandoned = await startCheckout(server, walkedAway, "pro-monthly");
    expect(abandoned.status, abandoned.body).toBe(200);
    await server.sql(
      `update subscriptions set status = 'created', created_at = now() - interval '2 days',
              synced_at = now() - interval '2 days'
        where provider_subscription_id = '${abandoned.subscriptionId}'`,
    );

    const started = await startCheckout(server, cookie, "pro-monthly");
    expect(started.status, started.body).toBe(200);
    const subscriptionId = started.subscriptionId!;
    const paid = await sandboxPay(server, subscriptionId, "success");
    expect(paid.status).toBe(200);
    // The browser closed before the handler's answer reached the site, and no webhook comes.
    await server.jobsSettled();
    const statusOf = async (id: string) =>
      String(
        (
          await server.sql(
            `select status from subscriptions where provider_subscription_id = '${id}'`,
          )
        )[0]?.status,
      );
    expect(await statusOf(subscriptionId)).toBe("created");
    expect(await recorded(subscriptionId)).toEqual([]);

    // Forty minutes later, the hourly check runs.
    await server.sql(
      `update subscriptions set created_at = created_at - interval '40 minutes',
              synced_at = synced_at - interval '40 minutes'
        where provider_subscription_id = '${subscriptionId}'`,
    );
    const runHourlyCheck = async () => {
      await server.sql(
        `update jobs set run_at = now()
          where kind = 'maintenance.prune' and completed_at is null and failed_at is null`,
      );
      await server.jobsSettled();
    };
    await runHourlyCheck();

    expect(await statusOf(subscriptionId)).toBe("active");
    const paymentId = paid.body.razorpay_payment_id!;
    expect(await recorded(subscriptionId)).toEqual([
      { id: paymentId, amount: 69_900, status: "captured", invoices: 1 },
    ]);
    expect(await pageText(server, "/account", cookie)).toMatch(/Plan Pro/);
    expect(receipts(email)).toHaveLength(1);
    expect(await statusOf(abandoned.subscriptionId!)).toBe("created");
    const resyncsOf = async (id: string) =>
      Number(
        (
          await server.sql(
            `select count(*)::int as n from jobs
              where kind = 'razorpay.resync' and payload->>'providerSubscriptionId' = '${id}'`,
          )
        )[0]?.n,
      );
    expect(await resyncsOf(abandoned.subscriptionId!)).toBe(0);

    // The next hour's check: nothing to ask about this one any more (it is active and synced).
    const before = await resyncsOf(subscriptionId);
    await runHourlyCheck();
    expect(await resyncsOf(subscriptionId)).toBe(before);
    await holdWebhooks(false);
    await server.jobsSettled();
  });
});
