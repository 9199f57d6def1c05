/**
 * Issue 59, point 2: billing mails carry a signed link that opens that subscription's billing
 * page without signing in. It pays a missed charge and changes the payment method, pauses (with
 * an end) and cancels; it refuses anything else with 403 and changes nothing; it stops working
 * after its expiry and once used for a payment; it signs nobody in; every use is logged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, postForm, signUpVerified } from "../support/auth";
import { buyThroughSandbox, sandboxApi, sandboxCharge } from "../support/billing";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { pageText, textOf } from "../support/pages";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "billing-link-password-1";
const SANDBOX_API = "/_sandbox/razorpay";

describe.each(engines())("billing links in mails on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  let people = 0;
  const customer = async () => {
    const email = `linked${++people}@example.com`;
    const cookie = await signUpVerified(server, {
      name: `Linked ${people}`,
      email,
      password: PASSWORD,
    });
    return { email, cookie, subscriptionId: await buyThroughSandbox(server, cookie) };
  };
  /** The signed link in the newest mail to `email` whose subject matches. */
  const linkIn = async (email: string, subject: RegExp): Promise<string> => {
    await server.jobsSettled();
    const mail = readOutbox(server.dataDir)
      .filter((message) => message.to.includes(email) && subject.test(message.subject))
      .at(-1);
    const url = /https?:\/\/[^\s]+\/manage\/[A-Za-z0-9_-]+/.exec(mail?.text ?? "")?.[0];
    if (!url) throw new Error(`no billing link in the mail "${mail?.subject}"`);
    return new URL(url).pathname;
  };
  /** Signed out: no cookie at all. */
  const open = (path: string) => getWithCookies(server, path, "");
  const act = (path: string, fields: Record<string, string>) => postForm(server, path, "", fields);
  const status = async (id: string) =>
    (await sandboxApi<{ status: string }>(server.url, `/v1/subscriptions/${id}`)).status;

  it("changes the payment method from a receipt's link, refuses other actions, and works no more after", async () => {
    const { email, cookie, subscriptionId } = await customer();
    const link = await linkIn(email, /^Payment received/);
    const receipt = readOutbox(server.dataDir).find(
      (mail) => mail.to.includes(email) && /^Payment received/.test(mail.subject),
    );
    expect(receipt!.text).toContain(
      "Manage this subscription without signing in, for 10 days: pay, change how you pay, pause, resume or cancel (nothing else on your account)",
    );

    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("set-cookie")).toBeNull();
    expect(page.headers.get("cache-control")).toBe("no-store");
    const text = textOf(await page.text());
    expect(text).toContain(`For ${email}, from the link in your mail: billing only.`);
    expect(text).toContain("Change payment method");
    expect(text).toContain("Cancel my subscription");
    // The link opens nothing else: the account's pages still ask to sign in.
    expect((await open("/account/security")).status).toBe(302);

    // Anything but billing is refused, logged, and changes nothing.
    for (const intent of ["delete-account", "change-password", "export", ""]) {
      const refused = await act(link, { intent });
      expect(refused.status, intent).toBe(403);
      expect(textOf(await refused.text())).toContain("This link is for billing only");
    }
    expect(await status(subscriptionId)).toBe("active");

    // A new payment method: Razorpay's page for the new mandate, authorised there with UPI.
    const moved = await act(link, { intent: "change-method" });
    expect(moved.status).toBe(302);
    const hosted = moved.headers.get("location")!;
    const newId = /\/hosted\/(sub_\w+)$/.exec(hosted)?.[1];
    expect(newId).toBeDefined();
    const authorised = await fetch(`${server.url}${SANDBOX_API}/hosted/${newId}/authorise`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ method: "upi" }),
    });
    expect(authorised.status).toBe(200);
    await server.jobsSettled();
    expect(await pageText(server, "/account/subscription", cookie)).toMatch(
      /From \d{1,2} [A-Z][a-z]{2} \d{4}: UPI AutoPay/,
    );
    // Used for a payment method: the link works no more.
    const again = await open(link);
    expect(again.status).toBe(410);
    expect(textOf(await again.text())).toContain("This link was used for a payment");
    expect((await act(link, { intent: "cancel" })).status).toBe(410);

    const logged = await server.sql(
      `select action from audit_log where target = '${subscriptionId}' and action like 'billing-link.%' order by id`,
    );
    // Each drawing of the page is an "open"; each command, refused or done, its own entry.
    expect(logged[0]).toEqual({ action: "billing-link.open" });
    expect(
      logged.map((row) => row.action).filter((action) => action !== "billing-link.open"),
    ).toEqual([
      "billing-link.refused",
      "billing-link.refused",
      "billing-link.refused",
      "billing-link.refused",
      "billing-link.change-method",
    ]);
  });

  it("pays a missed charge from the failed-payment mail with a new payment method, once", async () => {
    const { email, cookie, subscriptionId } = await customer();
    expect((await sandboxCharge(`${server.url}${SANDBOX_API}`, subscriptionId, true)).status).toBe(
      200,
    );
    const link = await linkIn(email, /payment failed$/);
    const page = textOf(await (await open(link)).text());
    expect(page).toContain("Pay the missed charge");
    expect(page).toContain("with the card or UPI AutoPay you paid with, or a new one");
    expect(await status(subscriptionId)).toBe("pending");

    const pay = await act(link, { intent: "pay" });
    expect(pay.status).toBe(302);
    expect(pay.headers.get("location")).toMatch(new RegExp(`/hosted/${subscriptionId}$`));
    const charged = await fetch(`${server.url}${SANDBOX_API}/hosted/${subscriptionId}/authorise`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ method: "upi" }),
    });
    expect(charged.status).toBe(200);
    await server.jobsSettled();
    expect(await status(subscriptionId)).toBe("active");
    // The missed charge was taken by the new method, which pays from now on.
    expect(await pageText(server, "/account/subscription", cookie)).toMatch(
      /Payment method UPI AutoPay/,
    );
    expect((await open(link)).status).toBe(410);
    expect((await act(link, { intent: "pay" })).status).toBe(410);
  });

  it("pauses with an end from a link, and refuses one past its expiry", async () => {
    const { email, subscriptionId } = await customer();
    const link = await linkIn(email, /^Payment received/);
    const paused = await act(link, { intent: "pause", resumeAfter: "1" });
    expect(paused.status).toBe(200);
    expect(textOf(await paused.text())).toMatch(
      /Paused: nothing is charged until it resumes by itself on \d{1,2} [A-Z][a-z]{2} \d{4}; we write three days before\./,
    );
    expect(await status(subscriptionId)).toBe("paused");
    const [row] = await server.sql(
      `select resume_at is not null as ends from subscriptions where provider_subscription_id = '${subscriptionId}'`,
    );
    expect(row).toEqual({ ends: true });
    // The resume and its notice are queued for that day (run in cancel-flow.test.ts).
    expect(
      await server.sql(
        `select kind from jobs where completed_at is null and (kind = 'billing.pause-end' or payload->>'template' = 'pause-ending') order by kind`,
      ),
    ).toEqual([{ kind: "billing.pause-end" }, { kind: "mail.billing" }]);

    await server.sql(`update billing_links set expires_at = now() - interval '1 second'`);
    const expired = await open(link);
    expect(expired.status).toBe(410);
    expect(textOf(await expired.text())).toContain("This link has expired");
    expect((await act(link, { intent: "resume" })).status).toBe(410);
    expect(await status(subscriptionId)).toBe("paused");
    // A made-up token is not a link.
    expect((await open("/manage/not-a-real-token-at-all-0000")).status).toBe(404);
  });
});
