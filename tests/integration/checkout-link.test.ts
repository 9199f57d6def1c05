/**
 * Issue 57, point 4: buying from inside the app. The app asks for a link for an errand; the link
 * opens the browser signed in (after "Continue as …") on the page that does it, remembers where the
 * app waits, and works once; the app's wait sees the change. The whole journey with the reference
 * client and a browser is tests/e2e/desktop.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookiesFrom, getWithCookies, postForm, signUpVerified } from "../support/auth";
import { buyThroughSandbox } from "../support/billing";
import { signInDevice } from "../support/desktop";
import { expectConforms } from "../support/desktop-api";
import { httpEngine } from "../support/engines";
import { pageText, textOf } from "../support/pages";
import { type RunningTestServer, startServerOn } from "../support/server";
import { company, newTeam } from "../support/teams";

const PASSWORD = "checkout-link-password-1";
const RETURN = "http://127.0.0.1:47011/return";

describe("checkout links from the app", () => {
  let server: RunningTestServer;
  beforeAll(async () => {
    server = await startServerOn(httpEngine(), { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const ask = (access: string, body: unknown) =>
    fetch(`${server.url}/api/desktop/checkout-link`, {
      method: "POST",
      headers: { authorization: `Bearer ${access}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const me = async (access: string) =>
    (await (
      await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${access}` },
      })
    ).json()) as { entitlement: { plan: string }; entitlement_tag: string };
  const wait = (access: string, since: string, timeout: number) =>
    fetch(`${server.url}/api/desktop/wait?since=${since}&timeout=${timeout}`, {
      headers: { authorization: `Bearer ${access}` },
    });

  it("opens checkout signed in with the plan chosen, once, and the app's wait sees Pro", async () => {
    const cookie = await signUpVerified(server, {
      name: "Ishaan",
      email: "ishaan@example.com",
      password: PASSWORD,
    });
    const access = await signInDevice(server, cookie, "Ishaan's MacBook");
    const before = await me(access);

    const asked = await ask(access, { action: "buy", plan: "pro-yearly", return_uri: RETURN });
    expect(asked.status).toBe(200);
    const link = (await expectConforms("POST", asked)) as { url: string; expires_in: number };
    expect(link.expires_in).toBe(120);
    const url = new URL(link.url);
    expect(url.pathname).toBe("/login-via");
    expect(url.searchParams.get("next")).toBe("/checkout?plan=pro-yearly");

    // A browser with no session: "Continue as …?", then checkout with the plan and the name.
    const opened = await getWithCookies(server, url.pathname + url.search, "");
    expect(textOf(await opened.text())).toContain("Continue as ishaan@example.com?");
    const token = url.searchParams.get("token")!;
    const continued = await postForm(server, "/login-via", "", {
      token,
      next: url.searchParams.get("next")!,
    });
    expect(continued.status).toBe(302);
    expect(continued.headers.get("location")).toBe("/checkout?plan=pro-yearly");
    const browser = cookiesFrom(continued);
    expect(browser).toContain("session_token");
    expect(browser).toContain(`app_return=${encodeURIComponent(RETURN)}`);
    const checkout = await pageText(server, "/checkout?plan=pro-yearly", browser);
    expect(checkout).toContain("Subscribe to Pro (yearly)");

    // Used once: the same link again is refused, and signs nobody in.
    const again = await postForm(server, "/login-via", "", {
      token,
      next: "/checkout?plan=pro-yearly",
    });
    expect(again.headers.get("location")).toMatch(/^\/auth\?error=desktop_token/);
    expect(cookiesFrom(again)).not.toContain("session_token");

    // Nothing changed yet: the wait answers within its bound, unchanged.
    const idle = await wait(access, before.entitlement_tag, 1);
    expect(idle.status).toBe(200);
    expect(await idle.json()).toMatchObject({ changed: false, entitlement: { plan: "free" } });

    // The app waits while the purchase is made in the browser: the wait answers with Pro.
    const waiting = wait(access, before.entitlement_tag, 30);
    const subscriptionId = await buyThroughSandbox(server, browser, "pro-yearly");
    const changed = await waiting;
    expect(await expectConforms("GET", changed)).toMatchObject({
      changed: true,
      entitlement: { plan: "pro-yearly" },
    });
    // The page where it ends offers the way back, with what was done.
    const complete = await getWithCookies(
      server,
      `/checkout/complete?subscription=${subscriptionId}`,
      browser,
    );
    expect(await complete.text()).toContain(
      `href="${RETURN}?done=purchase&amp;subscription=${subscriptionId}"`,
    );
  });

  it("refuses an expired link, a bad errand, a return address that is not the app's, and seats of a team one does not manage", async () => {
    const cookie = await signUpVerified(server, {
      name: "Jaya",
      email: "jaya@example.com",
      password: PASSWORD,
    });
    const access = await signInDevice(server, cookie, "Jaya's laptop");
    const asked = (await (await ask(access, { action: "resume" })).json()) as { url: string };
    const url = new URL(asked.url);
    expect(url.searchParams.get("next")).toBe("/account/subscription");
    await server.sql(
      "update one_time_tokens set expires_at = now() - interval '1 second' where purpose = 'web_session' and used_at is null",
    );
    const expired = await getWithCookies(server, url.pathname + url.search, "");
    expect(expired.headers.get("location")).toMatch(/^\/auth\?error=desktop_token/);

    expect((await ask(access, { action: "buy", plan: "pro-forever" })).status).toBe(400);
    expect((await ask(access, { action: "refund" })).status).toBe(400);
    const evil = await ask(access, {
      action: "update-payment-method",
      return_uri: "https://evil.example/return",
    });
    expect(evil.status).toBe(400);
    expect(await evil.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("return_uri must be a loopback http URL"),
    });
    expect(
      (await fetch(`${server.url}/api/desktop/checkout-link`, { method: "POST" })).status,
    ).toBe(401);
    expect((await wait(access, "not-a-tag", 5)).status).toBe(400);

    // Seats: for the team's owner; anyone else is refused.
    const owner = await signUpVerified(server, {
      name: "Kabir",
      email: "kabir@example.com",
      password: PASSWORD,
    });
    const team = await newTeam(server, owner, company("Kabir Controls Private Limited"));
    const seats = { action: "seats", team_id: team.id, seats: 4, cycle: "yearly" };
    const refused = await ask(access, seats);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "forbidden" });
    const ownerAccess = await signInDevice(server, owner, "Kabir's desktop");
    const granted = (await (await ask(ownerAccess, seats)).json()) as { url: string };
    expect(new URL(granted.url).searchParams.get("next")).toBe(
      `/account/team/${team.id}/seats?seats=4&cycle=yearly`,
    );
  });
});
