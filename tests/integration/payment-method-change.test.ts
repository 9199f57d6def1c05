/**
 * Issue 59, point 3: a customer paying by card moves to UPI AutoPay without cancelling. The new
 * mandate is authorised now and pays from the next charge; the card's subscription ends with its
 * period once the new one is authorised; each period has one invoice, and Pro never stops. Two
 * periods are run on the sandbox's clock, on both engines (a money journey).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import {
  buyThroughSandbox,
  DETAILS,
  sandboxApi,
  sandboxCharge,
  sandboxPay,
  startCheckout,
} from "../support/billing";
import { contractEngines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { pageText } from "../support/pages";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "method-change-password-1";
const SANDBOX_API = "/_sandbox/razorpay";

describe.each(contractEngines("money journey"))("a new payment method on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const status = async (id: string) =>
    (await sandboxApi<{ status: string }>(server.url, `/v1/subscriptions/${id}`)).status;

  it("moves from card to UPI AutoPay at the next charge: one invoice per period, Pro throughout", async () => {
    const email = "mover@example.com";
    const cookie = await signUpVerified(server, { name: "Mover", email, password: PASSWORD });
    const card = await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    const page = () => pageText(server, "/account/subscription", cookie);
    expect(await page()).toContain("Change payment method");
    expect(
      await pageText(server, "/checkout?plan=pro-monthly&switch=1&change=method", cookie),
    ).toContain("Change how you pay for Pro (monthly)");

    // Authorised now with UPI; nothing is charged today.
    const started = await startCheckout(server, cookie, "pro-monthly", DETAILS, {
      switch: "1",
      change: "method",
    });
    expect(started.status, started.body).toBe(200);
    const upi = started.subscriptionId!;
    const paid = await sandboxPay(server, upi, "success", "upi");
    expect(paid.status).toBe(200);
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    await server.jobsSettled();
    const scheduled = await page();
    expect(scheduled).toMatch(
      /Pro \(monthly\) renews on (\d{1,2} [A-Z][a-z]{2} \d{4}) for ₹699, paid with UPI AutoPay; the current one pays nothing more\./,
    );
    expect(scheduled).toMatch(
      /Payment method Visa •••• 4366 From \d{1,2} [A-Z][a-z]{2} \d{4}: UPI AutoPay/,
    );
    expect(scheduled).toContain("Keep paying as now");
    expect(scheduled).not.toContain("Change payment method");
    const mails = readOutbox(server.dataDir).filter((mail) =>
      mail.subject.startsWith("New payment method for Pinout Pro (monthly) from"),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("is paid with UPI AutoPay");
    // The card's subscription ends with its period; it is not cancelled before the new one exists.
    expect(await status(card)).toBe("active");
    expect(await status(upi)).toBe("authenticated");

    // The next charge date: the card's subscription ends without a charge …
    expect((await sandboxCharge(`${server.url}${SANDBOX_API}`, card)).status).toBe(200);
    await server.jobsSettled();
    expect(await status(card)).toMatch(/^(cancelled|completed)$/);
    // … and Pro does not stop while the new mandate's first charge is on its way.
    expect(await pageText(server, "/account", cookie)).toMatch(/Plan Pro/);
    expect((await sandboxCharge(`${server.url}${SANDBOX_API}`, upi)).status).toBe(200);
    await server.jobsSettled();
    // A second period on the new mandate.
    expect((await sandboxCharge(`${server.url}${SANDBOX_API}`, upi)).status).toBe(200);
    await server.jobsSettled();
    expect(await status(upi)).toBe("active");

    const charged = await server.sql(
      `select s.provider_subscription_id as sub, p.method, p.amount_paise as amount
         from payments p join subscriptions s on s.id = p.subscription_id
        where p.status = 'captured' order by p.paid_at`,
    );
    expect(charged).toEqual([
      { sub: card, method: "card", amount: 69_900 },
      { sub: upi, method: "upi", amount: 69_900 },
      { sub: upi, method: "upi", amount: 69_900 },
    ]);
    // One tax invoice per period paid, none for the authorisation.
    const invoices = await server.sql(
      `select provider_payment_id from invoices where kind = 'invoice' order by issued_at`,
    );
    expect(invoices).toHaveLength(3);
    expect(new Set(invoices.map((row) => row.provider_payment_id)).size).toBe(3);
    const after = await page();
    expect(after).toMatch(/Plan Pro \(monthly\)/);
    expect(after).toMatch(/Payment method UPI AutoPay/);
  });
});
