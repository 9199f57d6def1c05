/**
 * Billing end to end over HTTP on the built server with its Razorpay sandbox: buying, renewals,
 * dunning, cancellation, webhooks (signatures, duplicates), crash recovery and the admin actions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authPost,
  cookiesFrom,
  getWithCookies,
  postForm,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import {
  DETAILS,
  postWebhook,
  SANDBOX,
  sandboxApi,
  sandboxCharge,
  sandboxPay,
  signedWebhook,
  startCheckout,
  cancelThroughFlow,
} from "../support/billing";
import { eventually } from "../support/eventually";
import { sectionText, textOf } from "../support/pages";
import { signInDevice } from "../support/desktop";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { parseCsv } from "../support/csv";
import { strFromU8, unzipSync } from "fflate";
import { EXPORT_KEYS } from "~/.server/account/export.server";
import { PAYMENT_METHODS_TEXT } from "~/config/pricing";
import { formatInr } from "~/lib/money";
import {
  type RunningTestServer,
  startServer,
  startServerProcess,
  startedDataDir,
} from "../support/server";

const PASSWORD = "billing-test-password-1";
const SANDBOX_API = "/_sandbox/razorpay";

describe.each(engines())("billing on $name with the sandbox", (engine) => {
  const dataDir = startedDataDir(engine);
  let server: RunningTestServer;
  let boss: string;

  const page = async (path: string, cookie: string) => {
    const response = await getWithCookies(server, path, cookie);
    return { status: response.status, html: await response.text() };
  };
  const accountText = async (cookie: string) =>
    textOf((await page("/account/subscription", cookie)).html);
  const mailTo = (email: string) =>
    readOutbox(dataDir).filter((message) => message.to.includes(email));

  /** Signs a new customer up and buys `plan`, as the checkout page does; returns the subscription id. */
  async function buy(email: string, plan = "pro-monthly", method: "card" | "upi" = "card") {
    const cookie = await signUpVerified(server, { name: "Buyer", email, password: PASSWORD });
    const started = await startCheckout(server, cookie, plan);
    expect(started.status).toBe(200);
    const subscriptionId = started.subscriptionId!;
    const paid = await sandboxPay(server, subscriptionId, "success", method);
    expect(paid.status).toBe(200);
    const verified = await postForm(server, "/checkout.data", cookie, {
      intent: "verify",
      ...paid.body,
    });
    expect(verified.status).toBeLessThan(400);
    // Active from the resync or the webhook; the payment method arrives with the charge event.
    await eventually(
      async () => /Status Active .*Payment method (Visa|UPI)/.test(await accountText(cookie)),
      20_000,
      "Active",
    );
    return { cookie, subscriptionId, paymentId: paid.body.razorpay_payment_id! };
  }

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      dataDir,
      env: { AUTH_RATE_LIMIT: "1000" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("buys Pro monthly by card: validated details, a failed try charges nothing, then Pro everywhere", async () => {
    const cookie = await signUpVerified(server, {
      name: "Asha",
      email: "asha@example.com",
      password: PASSWORD,
    });
    const checkout = await page("/checkout?plan=pro-monthly", cookie);
    expect(checkout.status).toBe(200);
    const text = textOf(checkout.html);
    expect(text).toContain("Subscribe to Pro (monthly)");
    expect(text).toContain("₹699 / month");
    expect(text).toContain("18% included");
    // Issue 34, point 8: the split waits for a state; the ways to pay are the pricing FAQ's words.
    expect(text).toContain(
      "Choose your state below to see the GST split your tax invoice will show.",
    );
    expect(text).toContain(PAYMENT_METHODS_TEXT);
    expect(textOf((await page("/pricing", "")).html)).toContain(PAYMENT_METHODS_TEXT);
    expect(text).toContain("Test mode");
    expect(checkout.html).toContain("Karnataka");

    const bad = await startCheckout(server, cookie, "pro-monthly", {
      ...DETAILS,
      postalCode: "12",
      gstin: "27AAPFU0939F1ZV",
    });
    expect(bad.status).toBe(400);
    expect(bad.subscriptionId).toBeNull();
    expect(bad.body).toContain("Enter the 6-digit PIN code.");
    expect(bad.body).toContain("not Karnataka");

    const first = await startCheckout(server, cookie, "pro-monthly", {
      ...DETAILS,
      gstin: "29AAPFU0939F1Z3",
    });
    expect(first.status).toBe(400);
    const started = await startCheckout(server, cookie, "pro-monthly");
    expect(started.status).toBe(200);
    const subscriptionId = started.subscriptionId!;

    const failed = await sandboxPay(server, subscriptionId, "failure");
    expect(failed.status).toBe(400);
    expect(textOf((await page("/account/subscription", cookie)).html)).toMatch(/Plan Free/);
    // Retrying reuses the unpaid subscription: nothing can be paid twice.
    const retry = await startCheckout(server, cookie, "pro-monthly");
    expect(retry.subscriptionId).toBe(subscriptionId);
    // The details are saved (Karnataka, the supplier's state): checkout splits the price as the
    // invoice will, before the buyer authorises anything.
    expect(textOf((await page("/checkout?plan=pro-monthly", cookie)).html)).toContain(
      "₹699 is ₹592.38 + ₹53.31 CGST (9%) + ₹53.31 SGST (9%), as your tax invoice will show it.",
    );

    const paid = await sandboxPay(server, subscriptionId, "success");
    const forged = await postForm(server, "/checkout.data", cookie, {
      intent: "verify",
      ...paid.body,
      razorpay_signature: "0".repeat(64),
    });
    expect(forged.status).toBe(400);
    const verified = await postForm(server, "/checkout.data", cookie, {
      intent: "verify",
      ...paid.body,
    });
    expect(verified.status).toBeLessThan(400);

    const account = await eventually(async () => {
      const current = await accountText(cookie);
      return /Status Active .*Visa/.test(current) ? current : undefined;
    });
    expect(account).toMatch(/Plan Pro \(monthly\)/);
    expect(account).toMatch(/Next charge ₹699 on \d{1,2} \w{3} \d{4}/);
    expect(account).toContain("Visa •••• 4366");
    // Issue 34, the renewal centre: one sentence, the GST inside the next charge as the invoice
    // splits it (a buyer in Karnataka, the supplier's state: CGST and SGST), what a failure does.
    expect(account).toMatch(/Pro \(monthly\) renews on \d{1,2} \w{3} \d{4} for ₹699\./);
    expect(account).toContain(
      "₹592.38 + ₹53.31 CGST (9%) + ₹53.31 SGST (9%), as your invoice will show it",
    );
    expect(account).toContain("If a charge fails, Razorpay retries it");
    // The account's summary: the same sentence and the last invoice.
    const summary = await eventually(async () => {
      const text = textOf((await page("/account", cookie)).html);
      return /Last invoice: \S+ ?, ₹699 on/.test(text) ? text : undefined;
    });
    expect(summary).toMatch(/Pro \(monthly\) renews on \d{1,2} \w{3} \d{4} for ₹699\./);
    expect(account).toMatch(/Device limit 3 devices/);

    const device = await signInDevice(server, cookie, "Asha MacBook");
    const me = (await (
      await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${device}` },
      })
    ).json()) as { entitlement: { plan: string; device_limit: number } };
    expect(me.entitlement).toMatchObject({ plan: "pro-monthly", device_limit: 3 });

    await eventually(async () =>
      mailTo("asha@example.com").some((mail) => mail.subject.startsWith("Payment received: ₹699")),
    );
    // Issue 34, point 6: the data export holds the billing data too, under every key the
    // export promises (export.server.test.ts ties those keys to the schema's tables).
    const exported = await getWithCookies(server, "/account/security/export", cookie);
    expect(exported.status).toBe(200);
    const data = (await exported.json()) as Record<string, unknown> & {
      billingDetails: { name: string; state: string; gstin: string | null };
      subscriptions: { razorpaySubscriptionId: string; plan: string; status: string }[];
      payments: { razorpayPaymentId: string; amountPaise: number; cardLast4: string }[];
      invoices: { kind: string; number: string; totalPaise: number; pdf: string }[];
    };
    expect(Object.keys(data).sort()).toEqual([...EXPORT_KEYS].sort());
    expect(data.billingDetails).toMatchObject({
      name: "Asha Rao",
      state: "Karnataka",
      gstin: null,
    });
    expect(data.subscriptions).toEqual([
      expect.objectContaining({
        razorpaySubscriptionId: subscriptionId,
        plan: "Pro (monthly)",
        status: "Active",
      }),
    ]);
    expect(data.payments).toContainEqual(
      expect.objectContaining({ amountPaise: 69_900, cardLast4: "4366" }),
    );
    const [invoice] = data.invoices;
    expect(invoice).toMatchObject({ kind: "tax invoice", totalPaise: 69_900 });
    expect(invoice?.pdf).toMatch(new RegExp(`^${server.url}/invoices/[0-9a-f-]{36}\\.pdf$`));
    expect(
      (await getWithCookies(server, invoice!.pdf.slice(server.url.length), cookie)).status,
    ).toBe(200);
    const raw = JSON.stringify(data);
    for (const secret of ["password", "secret", "token", "hash"]) expect(raw).not.toContain(secret);

    // Someone else's checkout id is not found, not shown.
    const other = await signUpVerified(server, {
      name: "Other",
      email: "other@example.com",
      password: PASSWORD,
    });
    expect((await page(`/checkout/complete?subscription=${subscriptionId}`, other)).status).toBe(
      404,
    );
    expect((await page(`/checkout/complete?subscription=${subscriptionId}`, cookie)).status).toBe(
      200,
    );
  });

  it("buys with UPI AutoPay and shows the UPI handle", async () => {
    const { cookie } = await buy("upi@example.com", "pro-yearly", "upi");
    const account = await accountText(cookie);
    expect(account).toMatch(/Plan Pro \(yearly\)/);
    // The customer's own page masks the UPI address like a card number.
    expect(account).toContain("UPI AutoPay su•••@razorpay");
    expect(account).not.toContain("success@razorpay");
    expect(account).toMatch(/Next charge ₹6,999 on/);
    expect(account).toMatch(/Pro \(yearly\) renews on \d{1,2} \w{3} \d{4} for ₹6,999\./);
    expect(account).toContain("₹5,931.36 + ₹533.82 CGST (9%) + ₹533.82 SGST (9%)");
    // Issue 34, point 7: deleting the account says what it does to the paid plan first.
    expect(textOf((await page("/account/security", cookie)).html)).toMatch(
      /You pay for Pro \(yearly\), paid up to \d{1,2} \w{3} \d{4}\. Deleting the account cancels it at Razorpay at once: Pro ends now, nothing more is charged, and the rest of the period is not refunded\./,
    );
  });

  it("renews, then fails into pending with an email and a banner, recovers, and halts after three failures", async () => {
    const { cookie, subscriptionId } = await buy("dunning@example.com");
    const api = `${server.url}${SANDBOX_API}`;

    expect((await sandboxCharge(api, subscriptionId)).status).toBe(200);
    await eventually(async () =>
      mailTo("dunning@example.com").filter((mail) => mail.subject.startsWith("Payment received"))
        .length === 2
        ? true
        : undefined,
    );

    expect((await sandboxCharge(api, subscriptionId, true)).status).toBe(200);
    const pending = await eventually(async () => {
      const html = (await page("/account", cookie)).html;
      return html.includes('data-testid="billing-banner"') ? textOf(html) : undefined;
    });
    expect(pending).toContain("Your last payment failed.");
    // Razorpay's next try is the next day (issue 59, point 5), said with its date.
    expect(await accountText(cookie)).toMatch(
      /The last charge for Pro \(monthly\) failed\. Razorpay tries again on \d{1,2} [A-Z][a-z]{2} \d{4}, then daily while it fails, and Pro stays on meanwhile;/,
    );
    // /fix-subscription in plain words (issue 34, point 5): what happened, what happens next and
    // the one button; the field-by-field comparison with Razorpay is the operator's page's.
    const fix = await eventually(async () => {
      const text = textOf((await page("/fix-subscription", cookie)).html);
      return text.includes("Your last payment failed") ? text : undefined;
    });
    expect(fix).toMatch(
      /Razorpay could not take the Pro \(monthly\) charge of ₹699 from Visa •••• 4366\. It tries again on \d{1,2} [A-Z][a-z]{2} \d{4}, then daily while it fails, and Pro stays on meanwhile\./,
    );
    expect(fix).toContain("If every retry fails, the subscription stops");
    expect(fix).not.toContain("Our record");
    expect(fix).not.toMatch(/plan_\w+/);
    expect((await page("/fix-subscription", cookie)).html).toMatch(
      /href="http:\/\/127\.0\.0\.1:\d+\/_sandbox\/razorpay\/hosted\/sub_\w+\?return=%2Ffix-subscription"/,
    );
    const resynced = await postForm(server, "/fix-subscription", cookie, { intent: "resync" });
    expect(textOf(await resynced.text())).toContain(
      "Checked with Razorpay: this page shows what it has on record.",
    );
    expect(await accountText(cookie)).toMatch(/Plan Pro \(monthly\)/);
    await eventually(async () =>
      mailTo("dunning@example.com").some((mail) => mail.subject.includes("payment failed")),
    );

    expect((await sandboxCharge(api, subscriptionId)).status).toBe(200);
    await eventually(async () => /Status Active/.test(await accountText(cookie)));
    expect((await page("/account", cookie)).html).not.toContain('data-testid="billing-banner"');

    for (let attempt = 0; attempt < 3; attempt += 1)
      expect((await sandboxCharge(api, subscriptionId, true)).status).toBe(200);
    // Settled: halted, and Free. (The page reads the subscription and the entitlement in two
    // statements; one read while the halt's webhook is processed showed the halted status beside
    // the entitlement of a moment before, CI on 7 Dec 2026. Noted to read both in one snapshot.)
    const halted = await eventually(async () => {
      const current = await accountText(cookie);
      return /Stopped after failed payments/.test(current) && /Plan Free/.test(current)
        ? current
        : undefined;
    });
    expect(halted).toMatch(/Plan Free/);
    expect(textOf((await page("/fix-subscription", cookie)).html)).toContain(
      "Razorpay stopped trying to charge Pro (monthly) to Visa •••• 4366, so your account is on Free.",
    );
    expect(halted).toContain(
      "Pro (monthly) stopped after failed payments, so your account is on Free. Paying the missed charge restarts it",
    );
    expect(halted).toContain("Pro is stopped after failed payments");
    await eventually(async () =>
      mailTo("dunning@example.com").some((mail) => mail.subject.includes("paused for non-payment")),
    );
  });

  it("names the admin's sandbox controls for what they do: 'Charge now and fail it' charges at once and fails", async () => {
    const { cookie, subscriptionId } = await buy("sandbox-controls@example.com");
    const path = "/admin-fix-subscription?email=sandbox-controls%40example.com";
    const before = (await page(path, boss)).html;
    const buttons = [...before.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((match) =>
      match[1]?.trim(),
    );
    expect(buttons).toEqual(expect.arrayContaining(["Charge now", "Charge now and fail it"]));
    expect(textOf(before)).not.toContain("Fail next charge");
    const userId = /name="userId" value="([^"]+)"/.exec(before)?.[1] ?? "";

    const failed = await postForm(server, path, boss, {
      intent: "sandbox-fail",
      userId,
      subscriptionId,
    });
    expect(failed.status).toBe(200);
    expect(textOf(await failed.text())).toContain(
      "The sandbox charged the next period now and the charge failed",
    );
    // Charged at once, not armed for the next renewal: the failure is there within seconds.
    const pending = await eventually(async () => {
      const html = (await page("/account", cookie)).html;
      return html.includes('data-testid="billing-banner"') ? textOf(html) : undefined;
    });
    expect(pending).toContain("Your last payment failed.");
    // Razorpay's next try is the next day (issue 59, point 5), said with its date.
    expect(await accountText(cookie)).toMatch(
      /The last charge for Pro \(monthly\) failed\. Razorpay tries again on \d{1,2} [A-Z][a-z]{2} \d{4}, then daily while it fails, and Pro stays on meanwhile;/,
    );
    // Razorpay and our record agree: one failed attempt now, and the subscription is pending.
    await eventually(async () =>
      /Status pending pending .*Failed attempts 1 1/.test(textOf((await page(path, boss)).html)),
    );
  });

  it("cancels at the end of the period, undoes it, and ends on Free when the period is over", async () => {
    const { cookie, subscriptionId } = await buy("cancel@example.com");
    const cancelled = await cancelThroughFlow(server, cookie, {
      reason: "other",
      details: "Just testing",
    });
    expect(cancelled.location).toBe("/account/subscription?notice=cancelled");
    const afterCancel = cancelled.page;
    expect(afterCancel).toMatch(/You keep Pro until \d{1,2} \w{3} \d{4}/);
    expect(afterCancel).toMatch(/Plan Pro \(monthly\)/);
    expect(afterCancel).toContain("Keep my subscription");
    // The renewal centre on a cancelled-but-running subscription: Pro to the date, then Free.
    expect(await accountText(cookie)).toMatch(
      /Pro \(monthly\) is cancelled: you keep Pro until \d{1,2} \w{3} \d{4}, then your account moves to Free\. Nothing more will be charged\./,
    );

    const undone = await postForm(server, "/account/subscription", cookie, {
      intent: "undo-cancel",
    });
    expect(textOf(await undone.text())).toContain("Your subscription continues");
    expect(await accountText(cookie)).toMatch(/Status Active/);

    await cancelThroughFlow(server, cookie);
    // The sandbox's renewal date arrives: a subscription cancelled at cycle end ends instead.
    expect((await sandboxCharge(`${server.url}${SANDBOX_API}`, subscriptionId)).status).toBe(200);
    const ended = await eventually(async () => {
      const current = await accountText(cookie);
      return /Plan Free/.test(current) ? current : undefined;
    });
    expect(ended).toMatch(/Status Cancelled/);
    expect(ended).toContain("Your account is on Free; nothing more will be charged.");
    expect(ended).not.toContain("Keep my subscription");
    await eventually(async () =>
      mailTo("cancel@example.com").some((mail) => mail.subject.includes("is cancelled")),
    );
  });

  it("refuses unsigned or wrongly signed webhooks with 400 and stores nothing", async () => {
    const body = JSON.stringify({
      entity: "event",
      event: "subscription.charged",
      contains: [],
      payload: {},
      created_at: 1,
    });
    const wrong = signedWebhook(body, "not-the-secret");
    expect((await postWebhook(server.url, wrong)).status).toBe(400);
    const unsigned = await fetch(`${server.url}/api/webhooks/razorpay`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-razorpay-event-id": "evt_unsigned00001" },
      body,
    });
    expect(unsigned.status).toBe(400);
    expect((await fetch(`${server.url}/api/webhooks/razorpay`)).status).toBe(405);
    // A correct signature on a body that is not a Razorpay event is refused too.
    const notAnEvent = JSON.stringify({ hello: "world" });
    const signed = signedWebhook(notAnEvent, SANDBOX.webhookSecret);
    expect((await postWebhook(server.url, signed)).status).toBe(400);
    // Nothing was stored: the correctly signed real event with the same id is still new.
    const real = { ...signedWebhook(body, SANDBOX.webhookSecret, signed.eventId) };
    expect(await (await postWebhook(server.url, real)).json()).toEqual({ status: "stored" });
    // The same signed body under another id is a replay (issue 20): acknowledged, not applied again.
    const fixed = signedWebhook(body, SANDBOX.webhookSecret, wrong.eventId);
    expect(await (await postWebhook(server.url, fixed)).json()).toEqual({ status: "duplicate" });
  });

  it("records a payment once when its event arrives five times at once", async () => {
    const { cookie: dupesCookie, subscriptionId } = await buy("dupes@example.com");
    const subscription = await sandboxApi<Record<string, unknown>>(
      server.url,
      `/v1/subscriptions/${subscriptionId}`,
    );
    const payment = {
      id: "pay_DupeDupeDupe01",
      entity: "payment",
      amount: 69_900,
      currency: "INR",
      status: "captured",
      method: "card",
      amount_refunded: 0,
      captured: true,
      card: { last4: "1111", network: "Mastercard" },
      notes: [],
      created_at: Math.floor(Date.now() / 1000),
    };
    const delivery = signedWebhook(
      JSON.stringify({
        entity: "event",
        event: "subscription.charged",
        contains: ["subscription", "payment"],
        payload: { subscription: { entity: subscription }, payment: { entity: payment } },
        created_at: Math.floor(Date.now() / 1000),
      }),
      SANDBOX.webhookSecret,
    );
    const statuses = await Promise.all(
      Array.from({ length: 5 }, () => postWebhook(server.url, delivery).then((r) => r.status)),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const admin = await eventually(async () => {
      const html = (await page(`/admin-fix-subscription?email=dupes%40example.com`, boss)).html;
      return html.includes("pay_DupeDupeDupe01") ? sectionText(html, "payments") : undefined;
    });
    expect(admin.match(/pay_DupeDupeDupe01/g)).toHaveLength(1);
    await eventually(async () =>
      mailTo("dupes@example.com").filter((mail) => mail.text.includes("pay_DupeDupeDupe01"))
        .length === 1
        ? true
        : undefined,
    );
    await server.jobsSettled();
    expect(
      mailTo("dupes@example.com").filter((mail) => mail.text.includes("pay_DupeDupeDupe01")),
    ).toHaveLength(1);
    // One tax invoice per payment: the first charge's and this one's.
    const invoices = textOf((await page("/invoices", dupesCookie)).html);
    expect(invoices.match(/PL\/\d{2}-\d{2}\/\d{6}/g)).toHaveLength(2);
  });

  it("writes a buyer name a spreadsheet would run as text in the GSTR-1 CSV (issue 20, point 10)", async () => {
    const cookie = await signUpVerified(server, {
      name: "Formula",
      email: "formula@example.com",
      password: PASSWORD,
    });
    const name = "-1+cmd|' /C calc'!A0";
    const started = await startCheckout(server, cookie, "pro-monthly", {
      ...DETAILS,
      name,
      gstin: "29AAPFU0939F1ZR",
    });
    expect(started.status).toBe(200);
    const paid = await sandboxPay(server, started.subscriptionId!, "success");
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    const csv = await eventually(
      async () => {
        const text = await (await getWithCookies(server, "/admin/invoices/gstr1.csv", boss)).text();
        return text.includes("calc") ? text : undefined;
      },
      20_000,
      "the buyer's invoice in the CSV",
    );
    const row = csv.split("\r\n").find((line) => line.includes("calc"))!;
    expect(row).toContain(`,'${name},`);
    expect(row).not.toContain(`,${name},`);
  });

  it("lets an admin resync, replay, refund and grant, each in the audit log; a customer gets 403", async () => {
    const { cookie, subscriptionId, paymentId } = await buy("support@example.com");
    const path = "/admin-fix-subscription?email=support%40example.com";
    const found = await page(path, boss);
    const userId = /name="userId" value="([^"]+)"/.exec(found.html)?.[1] ?? "";
    const eventId = /name="eventId" value="([^"]+)"/.exec(found.html)?.[1] ?? "";
    expect(userId).not.toBe("");
    // A webhook, or the resync that recorded its payment first (issue 53, finding 15).
    expect(eventId).toMatch(/^(evt_|resync:pay_)/);

    // Correcting the buyer's GSTIN: a credit note and a new invoice, in the audit log.
    const withInvoices = (await page(path, boss)).html;
    const invoiceId = /name="invoiceId" value="([^"]+)"/.exec(withInvoices)?.[1] ?? "";
    const correction = {
      intent: "correct-gstin",
      userId,
      invoiceId,
      gstin: "29AAPFU0939F1ZR",
      reason: "Buyer sent GSTIN late",
    };
    expect((await postForm(server, path, cookie, correction)).status).toBe(403);
    const badGstin = await postForm(server, path, boss, {
      ...correction,
      gstin: "29AAPFU0939F1ZX",
    });
    expect(badGstin.status).toBe(400);
    const corrected = await postForm(server, path, boss, correction);
    expect(textOf(await corrected.text())).toMatch(
      /Issued credit note PL\/CN\/\d{2}-\d{2}\/\d{4} and invoice PL\/\d{2}-\d{2}\/\d{6}/,
    );
    expect(textOf((await page(path, boss)).html)).toContain("invoice.correct-gstin");

    const actions: Record<string, string>[] = [
      { intent: "resync", userId, subscriptionId },
      { intent: "replay", userId, eventId },
      {
        intent: "refund-review",
        userId,
        paymentId,
        amount: "100",
        reason: "Goodwill for an outage",
      },
      { intent: "grant", userId, planId: "pro-yearly", days: "30", reason: "Conference speaker" },
    ];
    for (const fields of actions) {
      const refused = await postForm(server, path, cookie, fields);
      expect(refused.status, `customer ${fields.intent}`).toBe(403);
    }
    for (const fields of actions) {
      const response = await postForm(server, path, boss, fields);
      expect(
        response.status,
        `admin ${fields.intent}: ${textOf(await response.clone().text()).slice(0, 300)}`,
      ).toBe(200);
    }
    // The review asked for confirmation; confirming makes the refund (a customer cannot).
    const review = await postForm(server, path, boss, actions[2]!);
    const key = /name="key" value="(rf_[^"]+)"/.exec(await review.text())?.[1] ?? "";
    expect(key).not.toBe("");
    const confirm = {
      intent: "refund",
      userId,
      paymentId,
      amountPaise: "10000",
      reason: "Goodwill for an outage",
      key,
      // The subscription runs on after a goodwill refund (issue 33, point 7 asks).
      afterRefund: "keep",
    };
    expect((await postForm(server, path, cookie, confirm)).status).toBe(403);
    const refunded = await postForm(server, path, boss, confirm);
    expect(refunded.status).toBe(200);
    expect(textOf(await refunded.text())).toMatch(
      /Refunded ₹100 \(rfnd_\w+\); credit note PL\/CN\/\d{2}-\d{2}\/\d{4} issued and mailed to the customer\./,
    );
    const after = textOf((await page(path, boss)).html);
    for (const action of [
      "subscription.resync",
      "webhook.replay",
      "payment.refund",
      "entitlement.grant",
    ])
      expect(after).toContain(action);
    expect(after).toContain("boss@example.com");
    expect(after).toContain("Goodwill for an outage");
    expect(after).toMatch(/Refunded ₹100\.00|₹100/);
    expect(after).toMatch(/Pro \(yearly\) until/);

    const overRefund = await postForm(server, path, boss, {
      intent: "refund-review",
      userId,
      paymentId,
      amount: "5000",
      reason: "Too much",
    });
    expect(overRefund.status).toBe(400);
    const noReason = await postForm(server, path, boss, {
      intent: "grant",
      userId,
      planId: "pro-yearly",
      days: "30",
      reason: "",
    });
    expect(noReason.status).toBe(400);

    const subscriptions = textOf(
      (await page(`/admin/subscriptions?q=${subscriptionId}`, boss)).html,
    );
    expect(subscriptions).toContain("support@example.com");
    const dashboard = textOf((await page("/admin", boss)).html);
    expect(dashboard).toMatch(/MRR ₹[\d,]+/);

    // The refund issued a credit note against the payment's current (corrected) invoice.
    const invoices = textOf((await page("/invoices", cookie)).html);
    expect(invoices).toMatch(
      /PL\/CN\/\d{2}-\d{2}\/\d{4} Credit note .* −₹100 Credit against PL\/\d{2}-\d{2}\/\d{6}/,
    );

    // The month's accounting exports: admins only.
    expect((await page("/admin/invoices", cookie)).status).toBe(403);
    expect((await getWithCookies(server, "/admin/invoices/gstr1.csv", cookie)).status).toBe(403);
    const month = textOf((await page("/admin/invoices", boss)).html);
    expect(month).toMatch(/Documents \d+ Taxable value ₹/);
    const csv = await getWithCookies(server, "/admin/invoices/gstr1.csv", boss);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const csvText = await csv.text();
    expect(csvText.split("\r\n")[0]).toMatch(/^section,gstin_of_recipient,/);
    expect(csvText).toMatch(/\r\nb2b,29AAPFU0939F1ZR,/);
    expect(csvText).toMatch(/\r\nb2cs,/);
    const zip = Buffer.from(
      await (await getWithCookies(server, "/admin/invoices/documents.zip", boss)).arrayBuffer(),
    );
    expect(zip.subarray(0, 2).toString()).toBe("PK");

    // GSTR-1 for the offline tool (issue 33, point 9): a CSV per section, adding up to the
    // month's totals as /admin/invoices shows them.
    expect((await getWithCookies(server, "/admin/invoices/gstr1-offline.zip", cookie)).status).toBe(
      403,
    );
    const offline = await getWithCookies(server, "/admin/invoices/gstr1-offline.zip", boss);
    expect(offline.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await offline.arrayBuffer()));
    const sheet = (name: string) => parseCsv(strFromU8(files[name] ?? new Uint8Array()));
    expect(Object.keys(files).sort()).toEqual(
      [
        "b2b.csv",
        "b2cs.csv",
        "cdnr.csv",
        "exp.csv",
        "cdnur.csv",
        "docs.csv",
        "hsn(b2b).csv",
        "hsn(b2c).csv",
      ].sort(),
    );
    expect(sheet("b2b.csv")[0]?.[0]).toBe("GSTIN/UIN of Recipient");
    expect(sheet("b2b.csv").some((cells) => cells[0] === "29AAPFU0939F1ZR")).toBe(true);
    const paise = (cell: string | undefined) => Math.round(Number(cell) * 100);
    const sum = (name: string, column: number) =>
      sheet(name)
        .slice(1)
        .reduce((total, cells) => total + paise(cells[column]), 0);
    const taxable = sum("b2b.csv", 11) - sum("cdnr.csv", 11) + sum("b2cs.csv", 4);
    const shown = (label: string) =>
      new RegExp(`${label} (−?₹[\\d,]+(?:\\.\\d{2})?)`).exec(month)?.[1];
    const inr = (value: number) => (value < 0 ? `−${formatInr(-value)}` : formatInr(value));
    expect(inr(taxable)).toBe(shown("Taxable value"));
    expect(inr(sum("hsn(b2b).csv", 4) + sum("hsn(b2c).csv", 4))).toBe(shown("Total"));
    expect(inr(sum("hsn(b2b).csv", 6) + sum("hsn(b2c).csv", 6))).toBe(shown("IGST"));
    expect(inr(sum("hsn(b2b).csv", 7) + sum("hsn(b2c).csv", 7))).toBe(shown("CGST"));
    const issued = sheet("docs.csv")
      .slice(1)
      .reduce((total, cells) => total + Number(cells[3]), 0);
    expect(String(issued)).toBe(/Documents (\d+)/.exec(month)?.[1]);

    // The receipt linked the invoice and carried its PDF.
    const receipt = mailTo("support@example.com").find((mail) =>
      mail.subject.startsWith("Payment received"),
    );
    expect(receipt?.text).toMatch(/\/invoices\/[0-9a-f-]{36}\.pdf/);
    expect(receipt?.text).toContain("application/pdf");
  });
});

describe("webhook processing survives a crash", () => {
  it("processes an event stored just before SIGKILL exactly once after restart", async () => {
    const dataDir = startedDataDir();
    // Signing up needs the mail lane (the verification mail); the crash below does not run it.
    const setup = await startServer({ dataDir, env: { AUTH_RATE_LIMIT: "100" } });
    const cookie = await signUpVerified(setup, {
      name: "Kill",
      email: "kill@example.com",
      password: PASSWORD,
    }).finally(() => setup.stop());
    // A process of its own: this one is killed with SIGKILL.
    const first = await startServerProcess({
      dataDir,
      env: { JOBS_WORKER: "false", AUTH_RATE_LIMIT: "100" },
    });
    let restarted: RunningTestServer | undefined;
    try {
      const started = await startCheckout(first, cookie, "pro-monthly");
      const subscriptionId = started.subscriptionId!;
      const paid = await sandboxPay(first, subscriptionId, "success");
      expect(paid.status).toBe(200);
      // No worker runs here: the sandbox's own webhooks are stored and wait, as after a crash.
      await eventually(async () => {
        const log = await sandboxApi<{ items: { status: string }[] }>(
          first.url,
          "/control/webhooks",
        );
        return log.items.length === 3 && log.items.every((item) => item.status === "delivered");
      });
      expect(
        textOf(await getWithCookies(first, "/account/subscription", cookie).then((r) => r.text())),
      ).toMatch(/Plan Free/);
      await first.stop("SIGKILL");

      restarted = await startServer({ dataDir, env: { AUTH_RATE_LIMIT: "100" } });
      const signIn = await authPost(restarted, "/sign-in/email", {
        email: "kill@example.com",
        password: PASSWORD,
      });
      const again = cookiesFrom(signIn);
      const text = await eventually(async () => {
        const current = textOf(
          await (await getWithCookies(restarted!, "/account/subscription", again)).text(),
        );
        return /Status Active/.test(current) ? current : undefined;
      });
      expect(text).toMatch(/Plan Pro \(monthly\)/);
      await eventually(async () =>
        readOutbox(dataDir).filter((mail) => mail.subject.startsWith("Payment received")).length ===
        1
          ? true
          : undefined,
      );
      await restarted.jobsSettled();
      expect(
        readOutbox(dataDir).filter((mail) => mail.subject.startsWith("Payment received")),
      ).toHaveLength(1);
    } finally {
      await restarted?.stop();
      if (first.process.exitCode === null && first.process.signalCode === null) await first.stop();
    }
  });
});
