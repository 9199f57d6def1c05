/**
 * Issue 20, points 3 and 4: a scheduled switch reads as a switch (not "Cancelled") with its two
 * choices, cancelling outright stays possible, and every change a buyer makes is mailed exactly
 * once (double submits and replays mail nobody twice).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import {
  buyThroughSandbox,
  DETAILS,
  sandboxApi,
  sandboxPay,
  startCheckout,
  cancelThroughFlow,
} from "../support/billing";
import { eventually } from "../support/eventually";
import { pageText, textOf } from "../support/pages";
import { engines } from "../support/engines";
import { type OutboxMessage, readOutbox, waitForMail } from "../support/mail";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "switch-test-password-1";
const EMAIL = "switcher@example.com";
const SUBJECTS = {
  received: /^Payment received/,
  scheduled: /^Plan change scheduled: Pro \(yearly\) from /,
  withdrawn: "Plan change withdrawn: you stay on Pinout Pro (monthly)",
  cancelled: "Your Pinout subscription is cancelled",
  resumed: "Your Pinout subscription continues",
} as const;

describe.each(engines())("subscription changes on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const page = (cookie: string) => pageText(server, "/account/subscription", cookie);
  const post = async (cookie: string, fields: Record<string, string>) =>
    textOf(await (await postForm(server, "/account/subscription", cookie, fields)).text());
  const mine = (): OutboxMessage[] =>
    readOutbox(server.dataDir).filter((mail) => mail.to.includes(EMAIL));
  const count = (subject: string | RegExp) =>
    mine().filter((mail) =>
      typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject),
    ).length;
  const sandboxStatus = (subscriptionId: string) =>
    sandboxApi<{ status: string; has_scheduled_changes: boolean }>(
      server.url,
      `/v1/subscriptions/${subscriptionId}`,
    );
  /** Starts and authorises a switch to yearly as the page does; the new subscription's id. */
  const authoriseSwitch = async (cookie: string): Promise<string> => {
    const started = await startCheckout(server, cookie, "pro-yearly", DETAILS, { switch: "1" });
    expect(started.status).toBe(200);
    const next = started.subscriptionId!;
    const paid = await sandboxPay(server, next, "success");
    expect(paid.status).toBe(200);
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    await eventually(
      async () =>
        /Status Switching to Pro \(yearly\) on \d{1,2} [A-Z][a-z]{2} \d{4}/.test(
          await page(cookie),
        ),
      20_000,
      "the switch on /account/subscription",
    );
    return next;
  };

  it("shows a switch as a switch, withdraws it or cancels outright, and mails each change once", async () => {
    const cookie = await signUpVerified(server, {
      name: "Switcher",
      email: EMAIL,
      password: PASSWORD,
    });
    const monthly = await buyThroughSandbox(server, cookie);
    await waitForMail(server.dataDir, (mail) => SUBJECTS.received.test(mail.subject));

    // Point 3: the switch reads as a switch, with its two choices and cancelling still possible.
    const firstSwitch = await authoriseSwitch(cookie);
    const switching = await page(cookie);
    expect(switching).not.toMatch(/Cancelled/);
    expect(switching).toMatch(
      /Next charge ₹[\d,]+ on \d{1,2} [A-Z][a-z]{2} \d{4}, for Pro \(yearly\)/,
    );
    // Issue 34: today's plan is the one paid for; the renewal centre says what comes when.
    expect(switching).toMatch(/Plan Pro \(monthly\)/);
    expect(switching).toMatch(
      /Pro \(monthly\) until \d{1,2} [A-Z][a-z]{2} \d{4}; then Pro \(yearly\) starts, and ₹6,999 is charged that day\./,
    );
    expect(switching).toContain("Nothing to do to keep it");
    expect(switching).not.toContain("Keep the switch");
    expect(switching).toContain("Stay on Pro (monthly)");
    expect(switching).toContain("Cancel at end of period");
    expect(switching).not.toContain("Keep my subscription");
    await waitForMail(server.dataDir, (mail) => SUBJECTS.scheduled.test(mail.subject));

    // The "keep" choice that changed nothing is gone: asking for it is refused and changes nothing.
    expect(
      (await postForm(server, "/account/subscription", cookie, { intent: "keep-switch" })).status,
    ).toBe(400);
    expect((await sandboxStatus(firstSwitch)).status).toBe("authenticated");

    // Staying on monthly withdraws it; a double submit changes and mails nothing more.
    const [withdrawn, again] = [
      await post(cookie, { intent: "withdraw-switch" }),
      await post(cookie, { intent: "withdraw-switch" }),
    ];
    expect(withdrawn).toContain(
      "You stay on Pro (monthly); the switch to Pro (yearly) is withdrawn.",
    );
    expect(again).toContain("There is no plan change scheduled; your plan stays as it is.");
    expect(await page(cookie)).toMatch(/Status Active/);
    expect((await sandboxStatus(firstSwitch)).status).toBe("cancelled");
    expect(await sandboxStatus(monthly)).toMatchObject({
      status: "active",
      has_scheduled_changes: false,
    });
    await waitForMail(server.dataDir, (mail) => mail.subject === SUBJECTS.withdrawn);

    // Switching again, then cancelling outright: the switch goes too, and the page says cancelled.
    const secondSwitch = await authoriseSwitch(cookie);
    await eventually(
      async () => count(SUBJECTS.scheduled) === 2,
      15_000,
      "the second switch's mail",
    );
    const outright = await cancelThroughFlow(server, cookie, { reason: "too-expensive" });
    expect([outright.status, outright.location]).toEqual([
      302,
      "/account/subscription?notice=cancelled",
    ]);
    expect(outright.page).toMatch(
      /Cancelled\. You keep Pro until \d{1,2} [A-Z][a-z]{2} \d{4}; nothing more will be charged\./,
    );
    const cancelled = await page(cookie);
    expect(cancelled).toMatch(/Status Cancelled: ends at the end of the paid period/);
    expect(cancelled).toContain("Keep my subscription");
    expect(cancelled).not.toContain("Keep the switch");
    expect((await sandboxStatus(secondSwitch)).status).toBe("cancelled");
    expect((await sandboxStatus(monthly)).has_scheduled_changes).toBe(true);
    await waitForMail(server.dataDir, (mail) => mail.subject === SUBJECTS.cancelled);

    // Undoing the cancellation: it continues, with no switch coming back.
    await post(cookie, { intent: "undo-cancel" });
    await post(cookie, { intent: "undo-cancel" });
    expect(await page(cookie)).toMatch(/Status Active/);
    expect((await sandboxStatus(monthly)).has_scheduled_changes).toBe(false);
    await waitForMail(server.dataDir, (mail) => mail.subject === SUBJECTS.resumed);

    // Point 4: exactly one mail per change, counted once the worker has sent everything queued.
    await server.jobsSettled();
    expect({
      received: count(SUBJECTS.received),
      scheduled: count(SUBJECTS.scheduled),
      withdrawn: count(SUBJECTS.withdrawn),
      cancelled: count(SUBJECTS.cancelled),
      resumed: count(SUBJECTS.resumed),
    }).toEqual({ received: 1, scheduled: 2, withdrawn: 1, cancelled: 1, resumed: 1 });
    // Nothing else was mailed twice (the account's own mails included).
    const bySubject = new Map<string, number>();
    for (const mail of mine()) bySubject.set(mail.subject, (bySubject.get(mail.subject) ?? 0) + 1);
    const repeated = [...bySubject].filter(
      ([subject, times]) => times > 1 && !SUBJECTS.scheduled.test(subject),
    );
    expect(repeated).toEqual([]);
  });
});
