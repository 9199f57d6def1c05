/**
 * Issue 34, point 2: a yearly renewal is announced by mail a week before it is charged, once.
 * The notice is a job due at that moment (its run time is the day it goes out): the test reads
 * it, then moves the clock to it by making the job due now, as the worker would find it on the
 * day. Reading the subscription again (a resync) never queues a second one; a monthly renewal
 * under the threshold gets none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "~/lib/dates";
import { postForm, signUpVerified } from "../support/auth";
import { buyThroughSandbox } from "../support/billing";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "renewal-notice-password-1";
const DAY_MS = 86_400_000;

describe.each(engines())("renewal notices on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const notices = (email: string) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && /renews on/.test(mail.subject),
    );
  /** The renewal notices queued for a customer's subscriptions, with their charge dates. */
  const noticeJobs = (email: string) =>
    server.sql(`
      select j.run_at, j.completed_at, s.charge_at
        from jobs j
        join subscriptions s on s.id::text = j.payload->>'subscriptionId'
        join "user" u on u.id = s.user_id
       where j.kind = 'mail.billing' and j.payload->>'template' = 'renewal-reminder'
         and u.email = '${email}'`);

  it("mails a yearly renewal's notice on the day a week before it, once, resync or not", async () => {
    const email = "yearly-notice@example.com";
    const cookie = await signUpVerified(server, { name: "Yearly", email, password: PASSWORD });
    await buyThroughSandbox(server, cookie, "pro-yearly");
    await server.jobsSettled();

    const [job, ...more] = await noticeJobs(email);
    expect(more).toEqual([]);
    const runAt = new Date(String(job?.run_at));
    const chargeAt = new Date(String(job?.charge_at));
    // Due exactly seven days before the charge, and not yet: the day has not come.
    expect(chargeAt.getTime() - runAt.getTime()).toBe(7 * DAY_MS);
    expect(runAt.getTime()).toBeGreaterThan(Date.now() + 300 * DAY_MS);
    expect(job?.completed_at).toBeNull();
    expect(notices(email)).toEqual([]);

    // Read again before the day (the customer's "Check with Razorpay again"): still one notice.
    const resync = await postForm(server, "/fix-subscription", cookie, { intent: "resync" });
    expect(resync.status).toBe(200);
    await server.jobsSettled();
    expect(await noticeJobs(email)).toHaveLength(1);

    // The day comes: the worker finds the notice due and sends it.
    await server.sql(
      `update jobs set run_at = now() where kind = 'mail.billing' and payload->>'template' = 'renewal-reminder'`,
    );
    await server.jobsSettled();
    const [notice, ...again] = notices(email);
    expect(again).toEqual([]);
    expect(notice?.subject).toBe(`Your Pinout Pro (yearly) renews on ${formatDate(chargeAt)}`);
    // The body's paragraphs are wrapped for mail readers: read as one line.
    const body = notice?.text.replace(/\s+/g, " ");
    expect(body).toContain(
      `On ${formatDate(chargeAt)} we will charge ₹6,999 (GST included) to renew Pro (yearly) for another year.`,
    );
    expect(body).toContain("cancel or pause it before that date from Account → Subscription.");

    // Read again after it went out: the same renewal is not announced twice.
    expect((await postForm(server, "/fix-subscription", cookie, { intent: "resync" })).status).toBe(
      200,
    );
    await server.jobsSettled();
    expect(await noticeJobs(email)).toHaveLength(1);
    expect(notices(email)).toHaveLength(1);
  });

  it("announces no monthly renewal under the threshold (₹699 < ₹15,000)", async () => {
    const email = "monthly-notice@example.com";
    const cookie = await signUpVerified(server, { name: "Monthly", email, password: PASSWORD });
    await buyThroughSandbox(server, cookie, "pro-monthly");
    await server.jobsSettled();
    expect(await noticeJobs(email)).toEqual([]);
  });
});
