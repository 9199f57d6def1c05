/**
 * Issue 34, point 3: pause instead of cancel. Paused through the site, Razorpay charges nothing
 * and Pro runs to the end of the period already paid; resumed, it charges again from there. A
 * pause the customer makes in their UPI app (the sandbox's control) is shown as such, and only the
 * customer can resume it there. Each change is mailed once, double submits included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import {
  buyThroughSandbox,
  cancelThroughFlow,
  SANDBOX_AUTH,
  sandboxApi,
  sandboxCharge,
} from "../support/billing";
import { pageText, textOf } from "../support/pages";
import { PAUSE_RESUME_LIMIT } from "~/.server/billing/pause-limit.server";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "pause-test-password-1";

describe.each(engines())("pausing and resuming on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = async (cookie: string, fields: Record<string, string>) =>
    postForm(server, "/account/subscription", cookie, fields);
  const mails = (email: string, subject: RegExp) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && subject.test(mail.subject),
    );
  /** What the customer does in their UPI app (the sandbox's control stands for the app). */
  const inUpiApp = (id: string, action: "pause" | "resume" | "cancel") =>
    fetch(`${server.url}/_sandbox/razorpay/control/subscriptions/${id}/${action}-from-upi-app`, {
      method: "POST",
      headers: { authorization: SANDBOX_AUTH },
    });
  const sandboxStatus = async (id: string) =>
    (await sandboxApi<{ status: string }>(server.url, `/v1/subscriptions/${id}`)).status;

  it("pauses through the site, charges nothing while paused, keeps Pro to the paid end, and resumes", async () => {
    const email = "pauser@example.com";
    const cookie = await signUpVerified(server, { name: "Pauser", email, password: PASSWORD });
    const subscriptionId = await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    expect(await pageText(server, "/account/subscription", cookie)).toContain(
      "Pause instead of cancelling?",
    );

    // Paused twice (a double submit): one pause, one mail.
    const [first, second] = [
      await post(cookie, { intent: "pause" }),
      await post(cookie, { intent: "pause" }),
    ];
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(textOf(await first.text())).toMatch(
      /Paused: nothing more is charged\. You keep Pro until \d{1,2} [A-Z][a-z]{2} \d{4}; resume here whenever you like\./,
    );
    expect(await sandboxStatus(subscriptionId)).toBe("paused");
    await server.jobsSettled();
    expect(mails(email, /is paused$/)).toHaveLength(1);
    const paused = await pageText(server, "/account/subscription", cookie);
    expect(paused).toMatch(/Plan Pro \(monthly\)/);
    expect(paused).toMatch(
      /Pro \(monthly\) was paused on \d{1,2} [A-Z][a-z]{2} \d{4}, so nothing is charged\./,
    );
    expect(paused).toContain("Resume subscription");
    expect(paused).not.toContain("Next charge");
    // Razorpay refuses to charge a paused subscription.
    expect((await sandboxCharge(`${server.url}/_sandbox/razorpay`, subscriptionId)).status).toBe(
      400,
    );

    const [resumed, again] = [
      await post(cookie, { intent: "resume" }),
      await post(cookie, { intent: "resume" }),
    ];
    expect(textOf(await resumed.text())).toMatch(
      /Resumed: your subscription runs again, and the next charge is on \d{1,2} [A-Z][a-z]{2} \d{4}\./,
    );
    expect(again.status).toBe(200);
    expect(await sandboxStatus(subscriptionId)).toBe("active");
    await server.jobsSettled();
    expect(mails(email, /is running again$/)).toHaveLength(1);
    expect(await pageText(server, "/account/subscription", cookie)).toMatch(
      /Pro \(monthly\) renews on \d{1,2} [A-Z][a-z]{2} \d{4} for ₹699\./,
    );
  });

  it("shows a pause made in the customer's UPI app as such, and leaves resuming to them", async () => {
    const email = "upi-pauser@example.com";
    const cookie = await signUpVerified(server, { name: "Upi", email, password: PASSWORD });
    const subscriptionId = await buyThroughSandbox(server, cookie, "pro-yearly");
    await server.jobsSettled();

    // The customer pauses the mandate in their UPI app; Razorpay tells us by webhook.
    const control = await inUpiApp(subscriptionId, "pause");
    expect(control.status).toBe(200);
    await server.jobsSettled();
    const page = await pageText(server, "/account/subscription", cookie);
    expect(page).toMatch(
      /You paused Pro \(yearly\) in your UPI app on \d{1,2} [A-Z][a-z]{2} \d{4}, so nothing is charged\./,
    );
    expect(page).toContain("Only you can resume it, in that app's AutoPay mandates.");
    expect(page).not.toContain("Resume subscription");
    const paused = mails(email, /is paused$/);
    expect(paused).toHaveLength(1);
    expect(paused[0]!.text).toContain(
      "You paused the AutoPay mandate for Pro (yearly) in your UPI app",
    );

    // Asked here anyway: refused in words, and Razorpay is not asked.
    const refused = await post(cookie, { intent: "resume" });
    expect(refused.status).toBe(409);
    expect(textOf(await refused.text())).toContain("only you can resume it there");
    expect(await sandboxStatus(subscriptionId)).toBe("paused");

    // Resumed in the app: running again here.
    expect((await inUpiApp(subscriptionId, "resume")).status).toBe(200);
    await server.jobsSettled();
    expect(await pageText(server, "/account/subscription", cookie)).toMatch(
      /Pro \(yearly\) renews on \d{1,2} [A-Z][a-z]{2} \d{4} for ₹6,999\./,
    );
  });

  it("shows a mandate revoked in the UPI app as cancelled there, not as the customer's click here", async () => {
    const email = "upi-revoker@example.com";
    const cookie = await signUpVerified(server, { name: "Revoker", email, password: PASSWORD });
    const subscriptionId = await buyThroughSandbox(server, cookie);
    await server.jobsSettled();

    // Razorpay's subscription.cancelled says nothing of who cancelled.
    const control = await inUpiApp(subscriptionId, "cancel");
    expect(control.status).toBe(200);
    await server.jobsSettled();
    const page = await pageText(server, "/account/subscription", cookie);
    expect(page).toMatch(
      /Pro \(monthly\): Cancelled outside this site \(in a UPI app, a bank portal or at Razorpay\)\. You keep Pro until \d{1,2} [A-Z][a-z]{2} \d{4}; nothing more will be charged\./,
    );
    expect(page).not.toContain("Pause instead of cancelling?");

    // A cancellation made here reads as the customer's own.
    const other = "site-canceller@example.com";
    const otherCookie = await signUpVerified(server, {
      name: "Canceller",
      email: other,
      password: PASSWORD,
    });
    await buyThroughSandbox(server, otherCookie);
    await server.jobsSettled();
    expect((await cancelThroughFlow(server, otherCookie)).status).toBe(302);
    await server.jobsSettled();
    const own = await pageText(server, "/account/subscription", otherCookie);
    expect(own).toContain("Pro (monthly) is cancelled: you keep Pro until");
    expect(own).not.toContain("outside this site");
  });

  it("also: pause and resume are rate limited per account, so clicks stop reaching Razorpay", async () => {
    const email = "pause-clicker@example.com";
    const cookie = await signUpVerified(server, { name: "Clicker", email, password: PASSWORD });
    const subscriptionId = await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    // Each click asks Razorpay: within the limit they all do.
    for (let click = 0; click < PAUSE_RESUME_LIMIT.max; click += 1) {
      const answer = await post(cookie, { intent: click % 2 === 0 ? "pause" : "resume" });
      expect(answer.status, `click ${click + 1}`).toBe(200);
    }
    const statusBefore = await sandboxStatus(subscriptionId);
    const refused = await post(cookie, { intent: statusBefore === "paused" ? "resume" : "pause" });
    expect(refused.status).toBe(429);
    expect(textOf(await refused.text())).toMatch(
      /You paused or resumed many times in a short while\. Try again in \d+ minutes?\./,
    );
    // Refused before Razorpay was asked: the subscription did not change.
    expect(await sandboxStatus(subscriptionId)).toBe(statusBefore);
  });
});
