/**
 * Issue 20, points 5 and 7: mails chosen from the state Razorpay reports, webhooks deduplicated on
 * their signed body, and checkouts serialised per person.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import {
  buyThroughSandbox,
  DETAILS,
  postWebhook,
  SANDBOX,
  sandboxApi,
  signedWebhook,
  startCheckout,
} from "../support/billing";
import { pageText } from "../support/pages";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "money-test-password-1";
const FAILED_SUBJECT = "Action needed: your Pinout payment failed";

describe.each(engines())("money on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const accountText = (cookie: string) => pageText(server, "/account/subscription", cookie);

  it("point 7: two checkouts started at once are one subscription", async () => {
    const cookie = await signUpVerified(server, {
      name: "Two Tabs",
      email: "tabs@example.com",
      password: PASSWORD,
    });
    const [first, second] = await Promise.all([
      startCheckout(server, cookie, "pro-monthly"),
      startCheckout(server, cookie, "pro-monthly"),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.subscriptionId).not.toBeNull();
    expect(second.subscriptionId).toBe(first.subscriptionId);
    // A double submit without JavaScript (two form posts) too.
    const posts = await Promise.all(
      [0, 1].map(() =>
        postForm(server, "/checkout", cookie, { intent: "start", plan: "pro-monthly", ...DETAILS }),
      ),
    );
    const ids = await Promise.all(
      posts.map(async (post) => /sub_[A-Za-z0-9]{14}/.exec(await post.text())?.[0] ?? null),
    );
    for (const id of ids) if (id) expect(id).toBe(first.subscriptionId);
  });

  it("point 5: a late or replayed subscription.pending mails nothing to an active customer, and is applied once", async () => {
    const cookie = await signUpVerified(server, {
      name: "Late Event",
      email: "late@example.com",
      password: PASSWORD,
    });
    const subscriptionId = await buyThroughSandbox(server, cookie);
    expect(await accountText(cookie)).toMatch(/Status Active/);

    // The subscription as Razorpay had it, made stale: a pending event from before the recovery.
    const entity = await sandboxApi<Record<string, unknown>>(
      server.url,
      `/v1/subscriptions/${subscriptionId}`,
    );
    const body = JSON.stringify({
      entity: "event",
      account_id: "acc_Sandbox000001",
      event: "subscription.pending",
      contains: ["subscription"],
      payload: { subscription: { entity: { ...entity, status: "pending", auth_attempts: 1 } } },
      created_at: Math.floor(Date.now() / 1000) - 600,
    });
    const outcomes: string[] = [];
    // The same signed body, delivered three times under three event ids.
    for (let i = 0; i < 3; i++) {
      const response = await postWebhook(server.url, signedWebhook(body, SANDBOX.webhookSecret));
      expect(response.status).toBe(200);
      outcomes.push(((await response.json()) as { status: string }).status);
    }
    expect(outcomes).toEqual(["stored", "duplicate", "duplicate"]);
    // Until the worker has processed it and sent anything it queued.
    await server.jobsSettled();
    expect(await accountText(cookie)).toMatch(/Status Active/);
    expect(
      readOutbox(server.dataDir).filter(
        (mail) => mail.to.includes("late@example.com") && mail.subject === FAILED_SUBJECT,
      ),
    ).toEqual([]);
  });
});
