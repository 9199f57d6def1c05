/**
 * Issue 33, point 3: alerts. Each admin chooses on /admin/settings which events reach them, at
 * once or in a daily digest; an event is mailed once per admin who chose it (a redelivered
 * webhook, a second sweep: still once), never to one who did not; a customer cannot choose.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  getWithCookies,
  postForm,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import {
  buyThroughSandbox,
  postWebhook,
  SANDBOX,
  sandboxApi,
  sandboxCharge,
  signedWebhook,
} from "../support/billing";
import { pageText, textOf } from "../support/pages";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "alerts-test-password-1";
const QUIET_ADMIN = "quiet-admin@example.com";
const DIGEST_ADMIN = "digest-admin@example.com";
const ALERT_SUBJECT = /^\[Pinout admin\]/;

describe.each(engines())("alerts on $name", (engine) => {
  let server: RunningTestServer;
  let boss: string;
  let digestAdmin: string;

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: {
        AUTH_RATE_LIMIT: "100",
        ADMIN_EMAILS: [ADMIN_EMAIL, QUIET_ADMIN, DIGEST_ADMIN].join(","),
      },
    }));
    // An admin who chose nothing, and one who chose the digest.
    await signUpVerified(server, { name: "Quiet", email: QUIET_ADMIN, password: PASSWORD });
    digestAdmin = await signUpVerified(server, {
      name: "Digest",
      email: DIGEST_ADMIN,
      password: PASSWORD,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const alertsTo = (email: string) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && ALERT_SUBJECT.test(mail.subject),
    );
  const choose = async (cookie: string, kinds: string[], delivery: "now" | "digest") => {
    const response = await postForm(server, "/admin/settings", cookie, {
      intent: "save-alerts",
      delivery,
      ...Object.fromEntries(kinds.map((kind) => [`kind-${kind}`, "on"])),
    });
    expect(response.status).toBe(200);
    return response;
  };
  const openTicket = (cookie: string, subject: string) =>
    postForm(server, "/account/support", cookie, {
      intent: "open",
      category: "billing",
      subject,
      message: "Please look at my account, something is wrong.",
    });
  /** Runs a scheduled job now (the clock moved to its time) and waits for everything to settle. */
  const runScheduled = async (kind: string) => {
    const due = await server.sql(
      `update jobs set run_at = now() where kind = '${kind}' and completed_at is null and failed_at is null returning id`,
    );
    expect(due.length, `a scheduled ${kind} job`).toBeGreaterThan(0);
    await server.jobsSettled();
  };

  it("saves each admin's choice; a customer gets 403", async () => {
    const answer = await choose(boss, ["ticket-new", "payment-failed", "ticket-overdue"], "now");
    expect(await answer.text()).toContain(
      "Saved: 3 kinds of alert reach boss@example.com, each at once.",
    );
    const page = await (await getWithCookies(server, "/admin/settings", boss)).text();
    expect(page).toMatch(/name="kind-ticket-new" checked=""/);
    expect(page).not.toMatch(/name="kind-refund" checked=""/);
    await choose(digestAdmin, ["ticket-new"], "digest");

    const customer = await signUpVerified(server, {
      name: "Customer",
      email: "not-an-admin@example.com",
      password: PASSWORD,
    });
    const refused = await postForm(server, "/admin/settings", customer, {
      intent: "save-alerts",
      delivery: "now",
      "kind-ticket-new": "on",
    });
    expect(refused.status).toBe(403);
  });

  it("mails a new ticket at once, once, only to the admin who chose it; the digest admin gets it in one digest", async () => {
    const customer = await signUpVerified(server, {
      name: "Priya",
      email: "priya-alerts@example.com",
      password: PASSWORD,
    });
    expect((await openTicket(customer, "Where is my invoice?")).status).toBe(302);
    expect((await openTicket(customer, "And my GSTIN?")).status).toBe(302);
    await server.jobsSettled();

    const bossAlerts = alertsTo(ADMIN_EMAIL).filter((mail) => mail.text.includes("priya-alerts"));
    expect(bossAlerts).toHaveLength(2);
    expect(bossAlerts.map((mail) => mail.subject)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/priya-alerts@example\.com opened ticket #\d+: “And my GSTIN\?”/),
        expect.stringMatching(
          /priya-alerts@example\.com opened ticket #\d+: “Where is my invoice\?”/,
        ),
      ]),
    );
    expect(alertsTo(QUIET_ADMIN)).toEqual([]);
    expect(alertsTo(DIGEST_ADMIN)).toEqual([]);
    expect(await pageText(server, "/admin/settings", boss)).toContain(
      "priya-alerts@example.com opened ticket",
    );
    // Both wait in today's queue on /admin, oldest first, with the customer.
    expect(await pageText(server, "/admin", boss)).toMatch(
      /Tickets waiting for us \(\d+\)[\s\S]*Where is my invoice\?\s+· priya-alerts@example\.com[\s\S]*And my GSTIN\?\s+· priya-alerts@example\.com/,
    );

    // The digest, when its time comes: both tickets in one mail (alerts a minute old or more).
    await server.sql("update admin_alerts set created_at = created_at - interval '2 minutes'");
    await runScheduled("alerts.digest");
    const digests = alertsTo(DIGEST_ADMIN);
    expect(digests).toHaveLength(1);
    expect(digests[0]?.subject).toMatch(/\[Pinout admin\] \d+ alerts since the last digest/);
    expect(digests[0]?.text).toContain("“Where is my invoice?”");
    expect(digests[0]?.text).toContain("“And my GSTIN?”");
    // The next digest has nothing new to say: no mail.
    await runScheduled("alerts.digest");
    expect(alertsTo(DIGEST_ADMIN)).toHaveLength(1);
  });

  it("mails a failed renewal once per attempt, however often its webhook arrives", async () => {
    const customer = await signUpVerified(server, {
      name: "Farhan",
      email: "farhan-alerts@example.com",
      password: PASSWORD,
    });
    const subscriptionId = await buyThroughSandbox(server, customer);
    await server.jobsSettled();
    const failed = await sandboxCharge(`${server.url}/_sandbox/razorpay`, subscriptionId, true);
    expect(failed.status).toBe(200);
    await server.jobsSettled();
    // Razorpay tells us again, in another event about the same state (at least once): the
    // subscription is fetched again, still pending after the same attempt.
    const subscription = await sandboxApi<Record<string, unknown>>(
      server.url,
      `/v1/subscriptions/${subscriptionId}`,
    );
    expect(subscription.status).toBe("pending");
    const again = signedWebhook(
      JSON.stringify({
        entity: "event",
        event: "subscription.pending",
        contains: ["subscription"],
        payload: { subscription: { entity: subscription } },
        created_at: Math.floor(Date.now() / 1000),
      }),
      SANDBOX.webhookSecret,
    );
    expect(await (await postWebhook(server.url, again)).json()).toEqual({ status: "stored" });
    await server.jobsSettled();

    const alerts = alertsTo(ADMIN_EMAIL).filter((mail) => mail.text.includes("farhan-alerts"));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.subject).toMatch(
      new RegExp(
        `A renewal of farhan-alerts@example\\.com failed \\(${subscriptionId}, 1 failed attempt\\)`,
      ),
    );
    expect(alerts[0]?.text).toContain("/admin-fix-subscription?email=farhan-alerts%40example.com");
    expect(alertsTo(QUIET_ADMIN)).toEqual([]);

    // Today's queue on /admin (point 4): the renewal failing, with its next retry, and the
    // payment that failed today, each linked to the customer.
    const adminHtml = await (await getWithCookies(server, "/admin", boss)).text();
    const admin = textOf(adminHtml);
    expect(admin).toMatch(
      /Renewals failing \(\d+\)[\s\S]*farhan-alerts@example\.com\s+· Pro \(monthly\) · 1 failed attempt · (next retry|no retry scheduled)/,
    );
    expect(admin).toMatch(
      /Payments failed today \(\d+\)[\s\S]*farhan-alerts@example\.com\s+· ₹699/,
    );
    expect(adminHtml).toContain('href="/admin-fix-subscription?email=farhan-alerts%40example.com"');
  });

  it("alerts a ticket unanswered for 48 hours once, however often the sweep runs", async () => {
    const customer = await signUpVerified(server, {
      name: "Gita",
      email: "gita-alerts@example.com",
      password: PASSWORD,
    });
    expect((await openTicket(customer, "Nobody answers me")).status).toBe(302);
    await server.jobsSettled();
    await server.sql(
      "update support_tickets set created_at = now() - interval '49 hours' where subject = 'Nobody answers me'",
    );
    await runScheduled("alerts.sweep");
    await runScheduled("alerts.sweep");
    const overdue = alertsTo(ADMIN_EMAIL).filter((mail) =>
      mail.subject.includes("Nobody answers me"),
    );
    expect(overdue.map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/opened ticket #\d+: “Nobody answers me”/),
      expect.stringMatching(/Ticket #\d+ “Nobody answers me” has had no reply for 48 hours\./),
    ]);
  });
});
