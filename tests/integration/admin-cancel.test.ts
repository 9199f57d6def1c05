/**
 * Issue 33, point 5: the operator cancels a customer's subscription from /admin-fix-subscription,
 * now (Pro ends at once, in the site, /api/desktop/me and the licence) or at the end of the paid
 * period (Pro until then), each confirmed, audited and mailed once; a customer gets 403.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { buyThroughSandbox, sandboxApi } from "../support/billing";
import { eventually } from "../support/eventually";
import { pageText, textOf } from "../support/pages";
import { signInDevice } from "../support/desktop";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "cancel-test-password-1";

describe.each(engines())("an operator cancels a subscription on $name", (engine) => {
  let server: RunningTestServer;
  let boss: string;

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "100" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const sandbox = <T>(path: string) => sandboxApi<T>(server.url, path);
  const planOf = async (cookie: string) =>
    ((await (await getWithCookies(server, "/api/plan", cookie)).json()) as { plan: string | null })
      .plan;
  const mailsTo = (email: string, subject: RegExp) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && subject.test(mail.subject),
    );

  /** A customer on Pro, as the operator's page shows them. */
  const paidCustomer = async (email: string) => {
    const cookie = await signUpVerified(server, { name: "Cancel", email, password: PASSWORD });
    const subscriptionId = await buyThroughSandbox(server, cookie);
    const path = `/admin-fix-subscription?email=${encodeURIComponent(email)}`;
    const html = await (await getWithCookies(server, path, boss)).text();
    const userId = /name="userId" value="([^"]+)"/.exec(html)?.[1] ?? "";
    return { cookie, path, userId, subscriptionId };
  };

  it("cancel now: refused without the box ticked or from a customer; then Pro ends everywhere at once, audited, one mail", async () => {
    const email = "cancel-now@example.com";
    const { cookie, path, userId, subscriptionId } = await paidCustomer(email);
    const access = await signInDevice(server, cookie, "Cancel laptop");
    const me = async () =>
      (await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${access}` },
      }).then((response) => response.json())) as { entitlement: { plan: string } };
    expect(await planOf(cookie)).toBe("pro-monthly");
    expect((await me()).entitlement.plan).toBe("pro-monthly");

    const form = {
      intent: "cancel",
      userId,
      subscriptionId,
      when: "now",
      cancelReason: "Chargeback opened by the bank",
      cancelConfirm: "yes",
    };
    // The box not ticked: a field error, nothing cancelled.
    const unconfirmed = await postForm(server, path, boss, { ...form, cancelConfirm: "" });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("Tick the box to confirm.");
    // The customer posting the operator's form.
    expect((await postForm(server, path, cookie, form)).status).toBe(403);
    expect(await sandbox<{ status: string }>(`/v1/subscriptions/${subscriptionId}`)).toMatchObject({
      status: "active",
    });

    const answer = await postForm(server, path, boss, form);
    expect(answer.status).toBe(200);
    // The refund policy's promise for an early end, with the amount, for the operator to act on.
    expect(textOf(await answer.text())).toMatch(
      /The refund policy promises the unused part of the period \(₹[\d,.]+, (29|30|31) of (28|29|30|31) days\) unless this was for a breach of the Terms/,
    );
    expect(await pageText(server, path, boss)).toContain("Cancelled by us: Pro ended at once");
    expect(await sandbox<{ status: string }>(`/v1/subscriptions/${subscriptionId}`)).toMatchObject({
      status: "cancelled",
    });
    // Free at once: the site, the account page and the app.
    expect(await planOf(cookie)).toBe("free");
    expect(await pageText(server, "/account", cookie)).toMatch(/Plan Free/);
    expect((await me()).entitlement.plan).toBe("free");
    // Audited with the reason; mailed once.
    const admin = await pageText(server, path, boss);
    expect(admin).toContain("subscription.cancel-now");
    expect(admin).toContain("Chargeback opened by the bank");
    await server.jobsSettled();
    const mails = mailsTo(email, /subscription has ended$/);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("your account is on Free from now");
    expect(mails[0]?.text).not.toContain("Chargeback");

    // Again: nothing left to cancel.
    expect((await postForm(server, path, boss, form)).status).toBe(409);
  });

  it("cancel at period end: Pro until the period's end, set at Razorpay, audited, one mail", async () => {
    const email = "cancel-later@example.com";
    const { cookie, path, userId, subscriptionId } = await paidCustomer(email);
    const answer = await postForm(server, path, boss, {
      intent: "cancel",
      userId,
      subscriptionId,
      when: "period-end",
      cancelReason: "Asked by mail to stop renewing",
      cancelConfirm: "yes",
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toMatch(/Set to end with the paid period, on \d{1,2} \w{3} \d{4}/);
    const remote = await sandbox<{ status: string; end_at: number | null }>(
      `/v1/subscriptions/${subscriptionId}`,
    );
    expect(remote.status).toBe("active");
    expect(await planOf(cookie)).toBe("pro-monthly");
    expect(await pageText(server, "/account/subscription", cookie)).toContain(
      "Cancelled: ends at the end of the paid period",
    );
    expect(await pageText(server, path, boss)).toContain("subscription.cancel-at-period-end");
    await eventually(
      async () => mailsTo(email, /subscription is cancelled$/).length === 1,
      15_000,
      "the cancellation mail",
    );
    await server.jobsSettled();
    expect(mailsTo(email, /subscription is cancelled$/)).toHaveLength(1);
    expect(mailsTo(email, /subscription is cancelled$/)[0]?.text).toContain("You keep Pro until");
  });
});
