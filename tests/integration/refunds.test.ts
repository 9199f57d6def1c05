/**
 * Issue 20, points 6, 7 and 8, and issue 19's "a retry never sends a second refund": an operator's
 * refund is confirmed before it is made, stored and audited before Razorpay is called, and made
 * once even when Razorpay's answer is lost; a second subscription for someone already on Pro is
 * cancelled at once and refunded, with a mail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import {
  buyThroughSandbox,
  postWebhook,
  SANDBOX,
  sandboxApi,
  sandboxPay,
  signedWebhook,
} from "../support/billing";
import { eventually } from "../support/eventually";
import { pageText, sectionText, textOf } from "../support/pages";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { type RazorpayProxy, startRazorpayProxy } from "../support/razorpay-proxy";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "refund-test-password-1";

describe.each(engines())("refunds on $name", (engine) => {
  let server: RunningTestServer;
  let proxy: RazorpayProxy;
  let boss: string;

  beforeAll(async () => {
    proxy = await startRazorpayProxy();
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { RAZORPAY_API_URL: proxy.apiUrl, AUTH_RATE_LIMIT: "100" },
    }));
    proxy.retarget(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
  });

  /** Razorpay's own record, read from the sandbox's REST API. */
  const sandbox = <T>(path: string, init: RequestInit = {}) =>
    sandboxApi<T>(server.url, path, init);
  const mailsTo = (email: string, subject: RegExp) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && subject.test(mail.subject),
    );

  /**
   * A customer who bought Pro, as the operator's page shows them: its address, the ids its refund
   * forms carry, and the customer's cookie.
   */
  const paidCustomer = async (email: string, name: string) => {
    const cookie = await signUpVerified(server, { name, email, password: PASSWORD });
    await buyThroughSandbox(server, cookie);
    const path = `/admin-fix-subscription?email=${encodeURIComponent(email)}`;
    // Pro shows from the checkout's resync; the payment is recorded with the charge's webhook.
    const html = await eventually(
      async () => {
        const text = await (await getWithCookies(server, path, boss)).text();
        return /name="paymentId" value="pay_\w+"/.test(text) ? text : undefined;
      },
      20_000,
      "the payment on the admin page",
    );
    const userId = /name="userId" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const paymentId = /name="paymentId" value="(pay_\w+)"/.exec(html)?.[1] ?? "";
    return { cookie, path, userId, paymentId };
  };

  it("point 8: a refund is confirmed first, made once though Razorpay's answer is lost, and mailed once", async () => {
    const email = "refund@example.com";
    const { cookie, path, userId, paymentId } = await paidCustomer(email, "Refund");

    // Step one: an empty amount is everything left, and the page says so with the credit note.
    const review = await postForm(server, path, boss, {
      intent: "refund-review",
      userId,
      paymentId,
      amount: "",
      reason: "Bought by mistake",
    });
    expect(review.status).toBe(200);
    const reviewHtml = await review.text();
    expect(textOf(reviewHtml)).toMatch(
      new RegExp(
        `Refund ₹699\\? Everything left of payment ${paymentId}: ₹699 paid on \\d{1,2} [A-Z][a-z]{2} \\d{4}, ₹699 refundable\\. A GST credit note for ₹699 \\(taxable ₹[\\d.,]+, GST ₹[\\d.,]+\\) is issued against invoice PL/\\d{2}-\\d{2}/\\d{6} and mailed to the customer\\.`,
      ),
    );
    expect(proxy.refunds).toEqual([]);
    const key = /name="key" value="(rf_[^"]+)"/.exec(reviewHtml)?.[1] ?? "";
    const confirm = {
      intent: "refund",
      userId,
      paymentId,
      amountPaise: "69900",
      reason: "Bought by mistake",
      key,
    };
    expect((await postForm(server, path, cookie, confirm)).status).toBe(403);

    // Step two, submitted twice; Razorpay refunds, but its first answer never reaches the site.
    proxy.loseRefundAnswers(1);
    const [first, second] = await Promise.all([
      postForm(server, path, boss, confirm),
      postForm(server, path, boss, confirm),
    ]);
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(textOf(await answer.text())).toMatch(
        /Refunded ₹699 \(rfnd_\w+\)|refund of ₹699 requested; Razorpay has not confirmed it yet/i,
      );
    }
    await eventually(
      async () => /refunded/.test(await pageText(server, path, boss)),
      30_000,
      "the refund on the admin page",
    );
    // Every request to Razorpay carried the one key; Razorpay made one refund.
    expect(proxy.refunds.length).toBeGreaterThanOrEqual(2);
    expect(new Set(proxy.refunds.map((call) => call.key))).toEqual(new Set([key]));
    const made = await sandbox<{ items: { amount: number }[] }>(
      `/v1/payments/${paymentId}/refunds`,
    );
    expect(made.items.map((refund) => refund.amount)).toEqual([69_900]);
    const payment = await sandbox<{ amount_refunded: number }>(`/v1/payments/${paymentId}`);
    expect(payment.amount_refunded).toBe(69_900);

    // Each audited once, in the audit log's table (the timeline lists them too).
    const audit = sectionText(await (await getWithCookies(server, path, boss)).text(), "audit");
    expect(audit.match(/payment\.refund\.requested/g)).toHaveLength(1);
    expect(audit.match(/payment\.refund(?!\.)/g)).toHaveLength(1);
    await eventually(
      async () => mailsTo(email, /^Refund of ₹699 for Pinout Pro \(monthly\)$/).length === 1,
      15_000,
      "the refund mail",
    );
    const invoices = await pageText(server, "/invoices", cookie);
    expect(invoices.match(/PL\/CN\/\d{2}-\d{2}\/\d{4}/g)).toHaveLength(1);
    await server.jobsSettled();
    expect(mailsTo(email, /^Refund of/)).toHaveLength(1);

    // Point 6: a late payment.captured, carrying the payment as it was before the refund, does not
    // move it back: the status only moves forward.
    const stale = { ...(await sandbox<Record<string, unknown>>(`/v1/payments/${paymentId}`)) };
    Object.assign(stale, { status: "captured", amount_refunded: 0, refund_status: null });
    const late = await postWebhook(
      server.url,
      signedWebhook(
        JSON.stringify({
          entity: "event",
          account_id: "acc_Sandbox000001",
          event: "payment.captured",
          contains: ["payment"],
          payload: { payment: { entity: stale } },
          created_at: Math.floor(Date.now() / 1000) - 3_600,
        }),
        SANDBOX.webhookSecret,
      ),
    );
    expect(late.status).toBe(200);
    await server.jobsSettled();
    const after = await pageText(server, path, boss);
    expect(after).toMatch(new RegExp(`${paymentId} ₹699 ₹699 refunded`));
  });

  it("issue 32, point 6: of four different full refunds confirmed at once, one is queued and three are refused", async () => {
    const { path, userId, paymentId } = await paidCustomer("refund-race@example.com", "Race");
    // Four operators each review a full refund (each review has its own key)…
    const keys = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const review = await postForm(server, path, boss, {
          intent: "refund-review",
          userId,
          paymentId,
          amount: "",
          reason: "Race",
        });
        return /name="key" value="(rf_[^"]+)"/.exec(await review.text())?.[1] ?? "";
      }),
    );
    expect(new Set(keys).size).toBe(4);
    // …and all confirm at once.
    const answers = await Promise.all(
      keys.map((key) =>
        postForm(server, path, boss, {
          intent: "refund",
          userId,
          paymentId,
          amountPaise: "69900",
          reason: "Race",
          key,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    for (const answer of answers.filter((answer) => answer.status === 409))
      expect(textOf(await answer.text())).toContain("Nothing is left to refund on this payment");
    await server.jobsSettled();
    const calls = proxy.refunds.filter((call) => call.key !== undefined && keys.includes(call.key));
    expect(new Set(calls.map((call) => call.key)).size).toBe(1);
    const made = await sandbox<{ items: { amount: number }[] }>(
      `/v1/payments/${paymentId}/refunds`,
    );
    expect(made.items.map((refund) => refund.amount)).toEqual([69_900]);
  });

  it("point 7: a second subscription for someone on Pro is cancelled at once and refunded, with a mail", async () => {
    const email = "twice@example.com";
    const cookie = await signUpVerified(server, { name: "Twice", email, password: PASSWORD });
    const kept = await buyThroughSandbox(server, cookie);
    const original = await sandbox<{ plan_id: string; notes: Record<string, string> }>(
      `/v1/subscriptions/${kept}`,
    );

    // A second one for the same account, made outside our checkout (a stale tab's, or Razorpay's
    // dashboard), and paid.
    const extra = await sandbox<{ id: string }>("/v1/subscriptions", {
      method: "POST",
      body: JSON.stringify({
        plan_id: original.plan_id,
        total_count: 12,
        notes: { user_id: original.notes.user_id, plan_id: "pro-monthly", email },
      }),
    });
    expect((await sandboxPay(server, extra.id, "success")).status).toBe(200);

    await eventually(
      async () =>
        (await sandbox<{ status: string }>(`/v1/subscriptions/${extra.id}`)).status === "cancelled",
      30_000,
      "the second subscription cancelled",
    );
    const invoices = await sandbox<{ items: { payment_id: string | null }[] }>(
      `/v1/invoices?subscription_id=${extra.id}`,
    );
    const charged = invoices.items.map((invoice) => invoice.payment_id).filter(Boolean);
    expect(charged).toHaveLength(1);
    await eventually(
      async () =>
        (await sandbox<{ status: string }>(`/v1/payments/${charged[0]}`)).status === "refunded",
      30_000,
      "the second subscription's charge refunded",
    );
    // The first one is untouched, and the account is still on it.
    expect(
      await sandbox<{ status: string; has_scheduled_changes: boolean }>(
        `/v1/subscriptions/${kept}`,
      ),
    ).toMatchObject({ status: "active", has_scheduled_changes: false });
    expect(await pageText(server, "/account/subscription", cookie)).toMatch(/Status Active/);
    await eventually(
      async () =>
        mailsTo(email, /^We cancelled a second Pinout subscription$/).length === 1 &&
        mailsTo(email, /^Refund of ₹699/).length === 1,
      15_000,
      "the cancellation and refund mails",
    );
    const [notice] = mailsTo(email, /^We cancelled a second/);
    expect(notice?.text).toContain(extra.id);
    expect(notice?.text).toContain("is refunded in full");
    await server.jobsSettled();
    expect(mailsTo(email, /^We cancelled a second/)).toHaveLength(1);
  });

  /** The plan the site gives the signed-in customer now (entitlementFor). */
  const planOf = async (cookie: string) =>
    ((await (await getWithCookies(server, "/api/plan", cookie)).json()) as { plan: string | null })
      .plan;

  it("issue 32, point 1: a refunded yearly duplicate grants nothing beside a monthly Pro", async () => {
    const email = "yearly-twice@example.com";
    const cookie = await signUpVerified(server, { name: "Yearly", email, password: PASSWORD });
    const kept = await buyThroughSandbox(server, cookie);
    const { notes } = await sandbox<{ notes: Record<string, string> }>(`/v1/subscriptions/${kept}`);
    // A yearly subscription for the same account, made at the provider, and paid: ₹6,999.
    const yearly = await sandbox<{ id: string }>("/v1/plans", {
      method: "POST",
      body: JSON.stringify({
        period: "yearly",
        interval: 1,
        item: { name: "Pinout Pro (yearly)", amount: 699_900, currency: "INR" },
      }),
    });
    const extra = await sandbox<{ id: string }>("/v1/subscriptions", {
      method: "POST",
      body: JSON.stringify({
        plan_id: yearly.id,
        total_count: 5,
        notes: { user_id: notes.user_id, plan_id: "pro-yearly", email },
      }),
    });
    expect((await sandboxPay(server, extra.id, "success")).status).toBe(200);
    await eventually(
      async () => mailsTo(email, /^Refund of ₹6,999/).length === 1,
      30_000,
      "the yearly duplicate refunded in full",
    );
    await server.jobsSettled();
    // Before the fix: "pro-yearly", a year of Pro for money that went back.
    expect(await planOf(cookie)).toBe("pro-monthly");
    expect(await pageText(server, "/account/subscription", cookie)).toMatch(
      /Current plan Plan Pro \(monthly\)/,
    );
  });

  it("issue 32, point 1: a partial refund keeps Pro; refunding the rest of the first payment ends the subscription at once", async () => {
    const email = "seven-days@example.com";
    const { cookie, path, userId, paymentId } = await paidCustomer(email, "Seven");
    const [subscriptionId] = /sub_\w+/.exec(await pageText(server, path, boss)) ?? ([] as string[]);
    const refund = async (amountPaise: number, reason: string, afterRefund?: string) => {
      const review = await postForm(server, path, boss, {
        intent: "refund-review",
        userId,
        paymentId,
        amount: String(amountPaise / 100),
        reason,
      });
      const reviewHtml = await review.text();
      const key = /name="key" value="(rf_[^"]+)"/.exec(reviewHtml)?.[1] ?? "";
      const confirm = {
        intent: "refund",
        userId,
        paymentId,
        amountPaise: String(amountPaise),
        reason,
        key,
      };
      const made = await postForm(server, path, boss, {
        ...confirm,
        ...(afterRefund ? { afterRefund } : {}),
      });
      expect(made.status).toBe(200);
      await server.jobsSettled();
      return { review: textOf(reviewHtml), made: textOf(await made.text()), confirm };
    };

    // Issue 33, point 7: a refund that leaves the period paid asks what happens to the
    // subscription, and is not made without the answer.
    const unanswered = await postForm(server, path, boss, {
      intent: "refund-review",
      userId,
      paymentId,
      amount: "100",
      reason: "Goodwill",
    });
    const unansweredKey = /name="key" value="(rf_[^"]+)"/.exec(await unanswered.text())?.[1];
    const refused = await postForm(server, path, boss, {
      intent: "refund",
      userId,
      paymentId,
      amountPaise: "10000",
      reason: "Goodwill",
      key: unansweredKey ?? "",
    });
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain(
      `Choose what happens to subscription ${subscriptionId} after the refund.`,
    );
    const goodwill = await refund(10_000, "Goodwill", "keep");
    expect(goodwill.review).toContain(`After the refund, subscription ${subscriptionId}…`);
    expect(goodwill.made).toMatch(/Refunded ₹100 \(rfnd_\w+\)/);
    expect(await planOf(cookie)).toBe("pro-monthly");
    expect(await sandbox<{ status: string }>(`/v1/subscriptions/${subscriptionId}`)).toMatchObject({
      status: "active",
    });

    // The 7-day refund: the rest of the first payment. The policy: the subscription ends and the
    // account moves to Free straight away, and nothing more is charged.
    const sevenDay = await refund(59_900, "7-day refund");
    // No question here: the policy decides, and the confirmation says so.
    expect(sevenDay.review).toContain(
      `This refund leaves the current period unpaid: subscription ${subscriptionId} ends at once and the customer moves to Free`,
    );
    expect(sevenDay.review).not.toContain("After the refund, subscription");
    expect(sevenDay.made).toContain("the subscription has ended and the customer is on Free");
    await eventually(
      async () =>
        (await sandbox<{ status: string }>(`/v1/subscriptions/${subscriptionId}`)).status ===
        "cancelled",
      30_000,
      "the refunded subscription cancelled at Razorpay",
    );
    await server.jobsSettled();
    expect(await planOf(cookie)).toBe("free");
    expect(await pageText(server, "/account", cookie)).toMatch(/Plan Free/);
    await eventually(
      async () => mailsTo(email, /^Refund of ₹599/).length === 1,
      15_000,
      "the second refund's mail",
    );
    expect(mailsTo(email, /^Refund of ₹599/)[0]?.text).toContain(
      "With this refund your Pro (monthly) subscription has ended and your account is on the Free plan",
    );
    expect(mailsTo(email, /^Refund of ₹100/)[0]?.text).not.toContain("has ended");
  });

  it("issue 33, point 7: a partial refund with 'ends with the paid period' refunds, then sets the subscription to end, audited", async () => {
    const email = "partial-end@example.com";
    const { cookie, path, userId, paymentId } = await paidCustomer(email, "Partial");
    const [subscriptionId] = /sub_\w+/.exec(await pageText(server, path, boss)) ?? ([] as string[]);
    const review = await postForm(server, path, boss, {
      intent: "refund-review",
      userId,
      paymentId,
      amount: "200",
      reason: "Partly unhappy",
    });
    const key = /name="key" value="(rf_[^"]+)"/.exec(await review.text())?.[1] ?? "";
    const made = await postForm(server, path, boss, {
      intent: "refund",
      userId,
      paymentId,
      amountPaise: "20000",
      reason: "Partly unhappy",
      key,
      afterRefund: "period-end",
    });
    expect(made.status).toBe(200);
    expect(textOf(await made.text())).toMatch(
      /Refunded ₹200 \(rfnd_\w+\)[^.]*\. Set to end with the paid period, on \d{1,2} \w{3} \d{4}: Pro until then/,
    );
    await server.jobsSettled();
    expect(await planOf(cookie)).toBe("pro-monthly");
    const page = await pageText(server, path, boss);
    expect(page).toContain("subscription.cancel-at-period-end");
    expect(page).toContain("Cancelled: ends at the end of the paid period");
    expect(await sandbox<{ status: string }>(`/v1/subscriptions/${subscriptionId}`)).toMatchObject({
      status: "active",
    });
  });
});
