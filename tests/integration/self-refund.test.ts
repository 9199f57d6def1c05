/**
 * Issue 34, point 4: a customer refunds their own first payment inside the refund policy's window.
 * What it will do is shown first; the confirmation, sent twice at once, refunds once (one refund
 * at Razorpay, one mail), ends Pro and moves the account to Free; /invoices shows the refund with
 * its reference and the bank's. Outside the window there is no button and the request is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "~/lib/dates";
import { getWithCookies, postForm, signUpVerified } from "../support/auth";
import { decodeJwt } from "jose";
import {
  buyThroughSandbox,
  sandboxApi,
  selfRefundConfirmation as confirmation,
} from "../support/billing";
import { pageText, textOf } from "../support/pages";
import { signInDevice } from "../support/desktop";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "self-refund-password-1";

describe.each(engines())("the customer's own refund on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const subscriptionPage = async (cookie: string, query = "") =>
    (await getWithCookies(server, `/account/subscription${query}`, cookie)).text();
  const me = async (access: string) => {
    const response = await fetch(`${server.url}/api/desktop/me`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { entitlement: { plan: string }; license: string };
  };

  it("shows what happens, then refunds once for a confirmation sent twice, and ends Pro", async () => {
    const email = "changed-mind@example.com";
    const cookie = await signUpVerified(server, { name: "Meera", email, password: PASSWORD });
    const subscriptionId = await buyThroughSandbox(server, cookie);
    await server.jobsSettled();

    const first = await subscriptionPage(cookie);
    expect(first).toContain('href="/account/subscription?refund=review#refund"');
    expect(first).not.toContain('name="key"');
    const review = await subscriptionPage(cookie, "?refund=review");
    expect(textOf(review)).toContain(
      "₹699 goes back to Visa •••• 4366; banks usually show it within 5 to 7 working days.",
    );
    expect(textOf(review)).toContain(
      "Pro (monthly) ends now and your account moves to Free (one device). Nothing more is charged.",
    );
    const fields = confirmation(review);
    expect(fields.paymentId).toMatch(/^pay_/);
    expect(fields.key).toMatch(/^rf_/);

    const confirm = () =>
      postForm(server, "/account/subscription", cookie, { intent: "request-refund", ...fields });
    const answers = await Promise.all([confirm(), confirm()]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    for (const answer of answers)
      expect(textOf(await answer.text())).toContain(
        "Refund requested: ₹699 goes back to where you paid from, and Pro ends now.",
      );
    await server.jobsSettled();

    // Once at Razorpay, once in the mail, and the account on Free.
    const made = await sandboxApi<{ items: { id: string; amount: number }[] }>(
      server.url,
      `/v1/payments/${fields.paymentId}/refunds`,
    );
    expect(made.items.map((refund) => refund.amount)).toEqual([69_900]);
    const mails = readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && mail.subject.startsWith("Refund of ₹699"),
    );
    expect(mails).toHaveLength(1);
    // A person's documents are in their own account.
    expect(mails[0]!.text.replace(/\s+/g, " ")).toContain("always in your account under Invoices.");
    const refundId = made.items[0]!.id;
    expect(mails[0]!.text).toContain(`our refund reference is ${refundId}`);
    const arn = /bank reference \(ARN\) (\d{23})/.exec(mails[0]!.text)?.[1];
    expect(arn).toBeDefined();
    const after = await pageText(server, "/account/subscription", cookie);
    expect(after).toMatch(/Plan Free/);
    expect(after).toContain("Status Ended: refunded in full");
    expect(after).not.toContain("Request a refund");
    expect(
      (await sandboxApi<{ status: string }>(server.url, `/v1/subscriptions/${subscriptionId}`))
        .status,
    ).toBe("cancelled");

    // /invoices: the credit note, and the refund with both references.
    const invoices = await pageText(server, "/invoices", cookie);
    expect(invoices).toMatch(/Credit note/);
    expect(invoices).toContain(`Refunded ${refundId} ${arn} ${fields.paymentId}`);

    // The same payment again, from another tab's confirmation (another key): refused.
    const again = await postForm(server, "/account/subscription", cookie, {
      intent: "request-refund",
      paymentId: fields.paymentId,
      key: "rf_another-tab-0001",
    });
    expect(again.status).toBe(409);
    expect(textOf(await again.text())).toContain(
      "This payment can no longer be refunded from here",
    );
  });

  it("offers no refund after the window, refuses one asked for, and never refunds another's payment", async () => {
    const cookie = await signUpVerified(server, {
      name: "Late",
      email: "late@example.com",
      password: PASSWORD,
    });
    await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    const fields = confirmation(await subscriptionPage(cookie, "?refund=review"));
    expect(fields.paymentId).toMatch(/^pay_/);

    // Someone else cannot ask for this payment's refund: not found, as if it did not exist.
    const other = await signUpVerified(server, {
      name: "Other",
      email: "other-refund@example.com",
      password: PASSWORD,
    });
    const foreign = await postForm(server, "/account/subscription", other, {
      intent: "request-refund",
      paymentId: fields.paymentId,
      key: "rf_someone-else-0001",
    });
    expect(foreign.status).toBe(404);

    // Eight days later (the payment moved back, as the clock would move forward).
    await server.sql(
      `update payments set paid_at = paid_at - interval '8 days' where provider_payment_id = '${fields.paymentId}'`,
    );
    const page = await subscriptionPage(cookie, "?refund=review");
    expect(page).not.toContain("Request a refund");
    expect(page).not.toContain('name="key"');
    expect(textOf(page)).toContain(
      "The 7-day refund covers a new subscription's first payment, asked for within 7 days of paying; this subscription is past it.",
    );
    const late = await postForm(server, "/account/subscription", cookie, {
      intent: "request-refund",
      paymentId: fields.paymentId,
      key: fields.key,
    });
    expect(late.status).toBe(409);
    await server.jobsSettled();
    expect(
      (
        await sandboxApi<{ items: unknown[] }>(
          server.url,
          `/v1/payments/${fields.paymentId}/refunds`,
        )
      ).items,
    ).toEqual([]);
  });

  it("finding 3: the 7-day refund is once per account and mailbox, and the licence says Free from the refund on", async () => {
    const email = "serial.refunder@gmail.com";
    const cookie = await signUpVerified(server, { name: "Serial", email, password: PASSWORD });
    await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    const access = await signInDevice(server, cookie, "Serial's laptop");
    const before = await me(access);
    expect(decodeJwt(before.license).entitlement).toMatchObject({ plan: "pro-monthly" });

    const fields = confirmation(await subscriptionPage(cookie, "?refund=review"));
    expect(
      (
        await postForm(server, "/account/subscription", cookie, {
          intent: "request-refund",
          ...fields,
        })
      ).status,
    ).toBe(200);
    await server.jobsSettled();
    // The next check-in replaces the licence: Free, at once.
    const after = await me(access);
    expect(after.entitlement.plan).toBe("free");
    expect(after.license).not.toBe(before.license);
    expect(decodeJwt(after.license).entitlement).toMatchObject({ plan: "free" });

    // Bought again: no second refund from here, offered or asked for.
    await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    expect(await subscriptionPage(cookie)).not.toContain("refund=review");
    const [again] = await server.sql(
      `select p.provider_payment_id from payments p join subscriptions s on s.id = p.subscription_id
       join "user" u on u.id = s.user_id
       where u.email = '${email}' and p.status = 'captured'`,
    );
    const refused = await postForm(server, "/account/subscription", cookie, {
      intent: "request-refund",
      paymentId: String(again!.provider_payment_id),
      key: "rf_second-time-0001",
    });
    expect(refused.status).toBe(409);
    expect(textOf(await refused.text())).toContain("once per customer (account and email address)");

    // Another account on the same mailbox (Gmail ignores dots and +tags): no refund either.
    const other = await signUpVerified(server, {
      name: "Serial again",
      email: "serialrefunder+2@gmail.com",
      password: PASSWORD,
    });
    await buyThroughSandbox(server, other);
    await server.jobsSettled();
    expect(await subscriptionPage(other)).not.toContain("refund=review");
  });

  it("during a trial: the refund and its mail say the trial goes on giving Pro, not Free (issue 54)", async () => {
    const email = "trial-then-refund@example.com";
    const cookie = await signUpVerified(server, { name: "Ishaan", email, password: PASSWORD });
    const started = await postForm(server, "/account/subscription", cookie, {
      intent: "start-trial",
    });
    expect(started.status).toBeLessThan(400);
    const [trial] = await server.sql(
      `select t.ends_at from trials t join "user" u on u.id = t.user_id where u.email = '${email}'`,
    );
    const trialEnd = new Date(String(trial!.ends_at));
    await buyThroughSandbox(server, cookie);
    await server.jobsSettled();

    const review = await subscriptionPage(cookie, "?refund=review");
    const day = formatDate(trialEnd);
    expect(textOf(review)).toContain(
      `Pro (monthly) ends now; your free trial goes on giving Pro until ${day}, then your account moves to Free unless you choose a plan.`,
    );
    const refunded = await postForm(server, "/account/subscription", cookie, {
      intent: "request-refund",
      ...confirmation(review),
    });
    expect(refunded.status).toBeLessThan(400);
    await server.jobsSettled();

    const mail = readOutbox(server.dataDir).find(
      (each) => each.to.includes(email) && /refund/i.test(each.subject),
    );
    const words = mail?.text.replace(/\s+/g, " ") ?? "";
    expect(words).toContain("Your account keeps Pro from your free trial until");
    expect(words).not.toContain("your account is on the Free plan");
    // And the site agrees: Pro from the trial.
    expect(await pageText(server, "/account", cookie)).toContain("Plan Pro (free trial)");
  });
});
