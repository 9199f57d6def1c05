/**
 * Issue 53: a state-changing request that says neither Origin nor Sec-Fetch-Site used to pass the
 * cross-site check. Now it is refused, but on the addresses of clients that authenticate
 * otherwise (server/cross-site.ts, WITHOUT_ORIGIN), each of which still works without them. The
 * check runs before any database is read: one engine is enough.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WITHOUT_ORIGIN } from "../../server/cross-site";
import { BROWSER_HEADERS, postForm, signUpVerified } from "../support/auth";
import { SANDBOX_AUTH } from "../support/billing";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "cross-site-password-1";
const MISSING = "did not say which site it came from";

describe("state-changing requests without Origin or Sec-Fetch-Site", () => {
  let server: RunningTestServer;
  let cookie = "";

  beforeAll(async () => {
    server = await startServerOn(httpEngine(), { env: { AUTH_RATE_LIMIT: "100" } });
    cookie = await signUpVerified(server, {
      name: "Asha",
      email: "asha@example.com",
      password: PASSWORD,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A POST as a script sends it: no Origin, no Sec-Fetch-Site. */
  const bare = (path: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/json", ...init.headers },
      body: init.body ?? "{}",
    });

  it("also: refuses a form post with a session cookie but neither header (403), and takes it from a browser", async () => {
    for (const path of ["/account/subscription", "/feedback", "/account/profile"]) {
      const refused = await fetch(`${server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          ...BROWSER_HEADERS,
          cookie,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "intent=start-trial",
      });
      expect(refused.status, path).toBe(403);
      expect(await refused.text(), path).toContain(MISSING);
    }
    // Nothing happened: the trial was not started by the refused post.
    const browser = await postForm(server, "/account/subscription", cookie, {
      intent: "start-trial",
    });
    expect(browser.status).toBe(200);
    // Sec-Fetch-Site alone says it too.
    const fetchSiteOnly = await fetch(`${server.url}/account/subscription`, {
      method: "POST",
      redirect: "manual",
      headers: {
        ...BROWSER_HEADERS,
        cookie,
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
      },
      body: "intent=start-trial",
    });
    expect(fetchSiteOnly.status).not.toBe(403);
    // The sign-in API answers in JSON with a code of its own.
    const api = await bare("/api/auth/sign-in/email", {
      body: JSON.stringify({ email: "asha@example.com", password: PASSWORD }),
    });
    expect(api.status).toBe(403);
    expect(await api.json()).toMatchObject({ code: "MISSING_ORIGIN" });
  });

  it("also: still takes each kind of client that authenticates otherwise", async () => {
    const kinds = new Set<string>();
    // The desktop API: a code exchange is judged by the route (a bad code), not refused here.
    const desktop = await bare("/api/desktop/token", {
      body: JSON.stringify({ code: "x", code_verifier: "y" }),
    });
    expect(desktop.status).toBe(400);
    kinds.add("/api/desktop/");
    // Callable functions: an unknown one is the route's own answer.
    const fn = await bare("/api/functions/noSuchFunction", { body: '{"data":{}}' });
    expect(await fn.text()).not.toContain(MISSING);
    expect(fn.status).not.toBe(403);
    kinds.add("/api/functions/");
    // Razorpay's webhook: an unsigned message is the route's refusal, not this one.
    const webhook = await bare("/api/webhooks/razorpay", { body: '{"event":"ping"}' });
    expect(webhook.status).not.toBe(403);
    expect(await webhook.text()).not.toContain(MISSING);
    kinds.add("/api/webhooks/razorpay");
    // The admin releases API: with a token it is the route's (a wrong token is 401)…
    const token = await bare("/api/admin/releases", {
      headers: { authorization: "Bearer pinout_admin_not-a-real-token" },
      body: JSON.stringify({ version: "1.2.3" }),
    });
    expect(token.status).toBe(401);
    const upload = await fetch(`${server.url}/api/admin/releases/x/files/a.dmg`, {
      method: "PUT",
      headers: { authorization: "Bearer pinout_admin_not-a-real-token" },
      body: "x",
    });
    expect(upload.status).toBe(401);
    kinds.add("/api/admin/releases").add("/api/admin/releases/");
    // …and with a cookie instead, it must say where it comes from.
    const cookieCall = await bare("/api/admin/releases", {
      headers: { cookie },
      body: JSON.stringify({ version: "1.2.3" }),
    });
    expect(cookieCall.status).toBe(403);
    expect(await cookieCall.json()).toMatchObject({ code: "MISSING_ORIGIN" });
    // The payment sandbox's REST API and controls, as the billing code and the tests call them.
    const plan = await bare("/_sandbox/razorpay/v1/plans", {
      headers: { authorization: SANDBOX_AUTH },
      body: JSON.stringify({
        period: "monthly",
        interval: 1,
        item: { name: "Cross-site", amount: 100, currency: "INR" },
      }),
    });
    expect(plan.status).toBe(200);
    kinds.add("/_sandbox/razorpay/v1/");
    const control = await bare("/_sandbox/razorpay/control/subscriptions/sub_none/charge", {
      headers: { authorization: SANDBOX_AUTH },
    });
    expect(await control.text()).not.toContain(MISSING);
    kinds.add("/_sandbox/razorpay/control/");
    // Every entry of the one list was tried here: a new one needs its case above.
    expect([...kinds].sort()).toEqual(WITHOUT_ORIGIN.map((entry) => entry.path).sort());
  });

  it("also: refuses a look-alike of an exempt path", async () => {
    for (const path of ["/api/webhooks/razorpay-x", "/api/desktopx/token"]) {
      const response = await bare(path, { headers: { cookie } });
      expect(response.status, path).toBe(403);
    }
  });
});
