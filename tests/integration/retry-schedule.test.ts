/**
 * Issue 59, point 5: the sandbox retries a failed renewal as Razorpay does, from the next day and
 * daily until the attempts run out, and the operator's queue, the customer's pages and the mail
 * all give the same next try. The sandbox's test clock (`/control/clock/advance`) moves time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "~/lib/dates";
import { getWithCookies, signUpVerified, startWithAdmin } from "../support/auth";
import { buyThroughSandbox, SANDBOX_AUTH, sandboxApi, sandboxCharge } from "../support/billing";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { pageText, sectionText, textOf } from "../support/pages";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "retry-schedule-password-1";
const DAY = 86_400;

describe.each(engines())("Razorpay's retries on $name", (engine) => {
  let server: RunningTestServer;
  let boss = "";

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "100" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const entity = (id: string) =>
    sandboxApi<{ status: string; charge_at: number; auth_attempts: number }>(
      server.url,
      `/v1/subscriptions/${id}`,
    );
  const advance = async (seconds: number) => {
    const response = await fetch(`${server.url}/_sandbox/razorpay/control/clock/advance`, {
      method: "POST",
      headers: { authorization: SANDBOX_AUTH, "content-type": "application/json" },
      body: JSON.stringify({ seconds }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { now: number; retried: string[] };
  };

  it("retries from the next day, daily, says the same day everywhere, then halts", async () => {
    const email = "retried@example.com";
    const cookie = await signUpVerified(server, { name: "Retried", email, password: PASSWORD });
    const id = await buyThroughSandbox(server, cookie);
    await server.jobsSettled();

    const before = Math.floor(Date.now() / 1000);
    expect((await sandboxCharge(`${server.url}/_sandbox/razorpay`, id, true)).status).toBe(200);
    await server.jobsSettled();
    const failed = await entity(id);
    expect(failed.status).toBe("pending");
    // The next try is a day after the failure, not the next period.
    expect(failed.charge_at - before).toBeGreaterThanOrEqual(DAY);
    expect(failed.charge_at - before).toBeLessThan(DAY + 120);
    const day = formatDate(new Date(failed.charge_at * 1000));

    expect(await pageText(server, "/fix-subscription", cookie)).toContain(
      `It tries again on ${day}, then daily while it fails, and Pro stays on meanwhile.`,
    );
    expect(await pageText(server, "/account/subscription", cookie)).toContain(
      `Razorpay tries again on ${day}, then daily while it fails`,
    );
    const queue = sectionText(
      await (await getWithCookies(server, "/admin", boss)).text(),
      "today-heading",
    );
    expect(queue).toContain(`next retry ${day}`);
    const mail = readOutbox(server.dataDir).find(
      (message) => message.to.includes(email) && /payment failed$/.test(message.subject),
    );
    expect(mail?.text).toMatch(
      /Razorpay (tries again on \d{1,2} [A-Z][a-z]{2} \d{4}|will try again)/,
    );

    // A day later Razorpay tries again, and the card still declines.
    expect((await advance(DAY + 60)).retried).toEqual([id]);
    await server.jobsSettled();
    const second = await entity(id);
    expect(second).toMatchObject({ status: "pending", auth_attempts: 2 });
    expect(second.charge_at - failed.charge_at).toBeGreaterThanOrEqual(DAY);
    expect(await pageText(server, "/fix-subscription", cookie)).toContain(
      `It tries again on ${formatDate(new Date(second.charge_at * 1000))}`,
    );
    // Nothing is due in between: moving an hour tries nothing.
    expect((await advance(3_600)).retried).toEqual([]);

    // The last attempt fails: halted, on Free, and the page says so.
    expect((await advance(DAY)).retried).toEqual([id]);
    await server.jobsSettled();
    expect((await entity(id)).status).toBe("halted");
    expect(
      textOf(await (await getWithCookies(server, "/fix-subscription", cookie)).text()),
    ).toContain("Payments stopped after failed retries");
  });
});
