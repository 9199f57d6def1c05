import { createHash, randomBytes } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BROWSER_HEADERS,
  cookiesFrom,
  getWithCookies,
  postForm,
  signUpVerified,
} from "../support/auth";
import { engines } from "../support/engines";
import { waitForMail } from "../support/mail";
import { type RunningTestServer, startServer } from "../support/server";

const PASSWORD = "desktop-test-password-1";

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

describe.each(engines())("desktop handoff and API on $name", (engine) => {
  let server: RunningTestServer;
  let cookie: string;

  const call = (name: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/functions/${name}`, {
      method: "POST",
      headers: {
        ...BROWSER_HEADERS,
        "content-type": "application/json",
        origin: server.url,
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const me = (token: string) =>
    fetch(`${server.url}/api/desktop/me`, { headers: { authorization: `Bearer ${token}` } });
  /** What the "Continue as …" button of /login-via posts (app → web). */
  const continueAs = (
    token: string,
    next: string,
    headers: Record<string, string> = {},
    origin = server.url,
  ) => postForm(server, "/login-via", "", { token, next }, { origin, ...headers });

  async function handoffToken(challenge: string, redirectUri = "http://127.0.0.1:53682/callback") {
    const response = await call(
      "generateAuthRedirectToken",
      {
        data: {
          redirect_uri: redirectUri,
          state: "state-1234567",
          code_challenge: challenge,
          code_challenge_method: "S256",
        },
      },
      { cookie },
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { result: { token: string } }).result.token;
  }

  async function signInDevice(name: string) {
    const { verifier, challenge } = pkce();
    const token = await handoffToken(challenge);
    const response = await post("/api/desktop/token", {
      token,
      code_verifier: verifier,
      device_name: name,
      platform: "mac",
      app_version: "2.1.0",
    });
    return { response, token, verifier };
  }

  beforeAll(async () => {
    server = await startServer({
      env: { DATABASE_URL: await engine.freshDatabaseUrl(), LOG_LEVEL: "debug" },
    });
    cookie = await signUpVerified(server, {
      name: "Dev Asha",
      email: "asha@example.com",
      password: PASSWORD,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe("callable functions", () => {
    it("needs a signed-in user for generateAuthRedirectToken", async () => {
      const { challenge } = pkce();
      const response = await call("generateAuthRedirectToken", {
        data: {
          redirect_uri: "http://127.0.0.1:5000/cb",
          state: "state-1234567",
          code_challenge: challenge,
          code_challenge_method: "S256",
        },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: { status: "UNAUTHENTICATED", message: "Not authenticated" },
      });
      // Who is calling is checked before what they sent: any body, even a broken one, gets 401.
      for (const body of ["{}", "not json", '{"data":{"redirect_uri":"x"}}', "[1]"]) {
        const anonymous = await call("generateAuthRedirectToken", body);
        expect(anonymous.status, body).toBe(401);
        expect(await anonymous.json()).toEqual({
          error: { status: "UNAUTHENTICATED", message: "Not authenticated" },
        });
      }
    });

    it("answers unknown functions, bad bodies and bad input with the right status", async () => {
      const unknown = await call("doesNotExist", { data: {} }, { cookie });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { status: string } }).error.status).toBe(
        "NOT_FOUND",
      );
      for (const body of ["[1]", '"text"', "{}", "not json"]) {
        const response = await call("generateAuthRedirectToken", body, { cookie });
        expect(response.status, body).toBe(400);
        expect(((await response.json()) as { error: { status: string } }).error.status).toBe(
          "INVALID_ARGUMENT",
        );
      }
      const badUri = await call(
        "generateAuthRedirectToken",
        {
          data: {
            redirect_uri: "https://evil.example/cb",
            state: "state-1234567",
            code_challenge: pkce().challenge,
            code_challenge_method: "S256",
          },
        },
        { cookie },
      );
      expect(badUri.status).toBe(400);
    });

    it("ignores a session cookie on a call that does not say it is same-origin", async () => {
      const response = await fetch(`${server.url}/api/functions/generateAuthRedirectToken`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({
          data: {
            redirect_uri: "http://127.0.0.1:5000/cb",
            state: "state-1234567",
            code_challenge: pkce().challenge,
            code_challenge_method: "S256",
          },
        }),
      });
      expect(response.status).toBe(401);
    });
  });

  describe("/login-via", () => {
    it("refuses a redirect_uri that is neither loopback nor the app's scheme", async () => {
      const url = new URL(`${server.url}/login-via`);
      url.search = new URLSearchParams({
        client: "desktop",
        redirect_uri: "https://evil.example/callback",
        state: "state-1234567",
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
      }).toString();
      const response = await getWithCookies(server, url.pathname + url.search, cookie);
      expect(response.status).toBe(400);
      // In words for a person; the validator's reason goes to the log (issue 34).
      const text = await response.text();
      expect(text).toContain(
        "This sign-in link from the app is incomplete or damaged, so it cannot connect the app.",
      );
      expect(text).not.toContain("redirect_uri must be");
    });

    it("explains a bare /login-via in words, not a validator's", async () => {
      const response = await getWithCookies(server, "/login-via", cookie);
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).toContain(
        "This page finishes signing in the Pinout desktop app, so it only works from the link the app opens.",
      );
      expect(text).not.toMatch(/client must be|client:/);
    });

    it("sends a signed-out browser to sign-in first, and back", async () => {
      const path = `/login-via?client=desktop&redirect_uri=${encodeURIComponent("pinout://auth")}&state=state-1234567&code_challenge=${pkce().challenge}&code_challenge_method=S256`;
      const response = await fetch(server.url + path, {
        redirect: "manual",
        headers: BROWSER_HEADERS,
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(
        `/auth?desktop=1&next=${encodeURIComponent(path)}`,
      );
    });
  });

  describe("token exchange", () => {
    let access = "";
    let refresh = "";

    it("exchanges a handoff token and verifier for device tokens, and mails about the new device", async () => {
      const { response, token, verifier } = await signInDevice("Asha's MacBook");
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        token_type: "Bearer",
        expires_in: 3600,
        user: { email: "asha@example.com", name: "Dev Asha" },
      });
      access = String(body.access_token);
      refresh = String(body.refresh_token);
      await waitForMail(
        server.dataDir,
        (mail) => mail.subject === "New sign-in to Pinout on Asha's MacBook",
      );

      // The same token a second time: burnt.
      const again = await post("/api/desktop/token", {
        token,
        code_verifier: verifier,
        device_name: "x",
        platform: "mac",
        app_version: "1",
      });
      expect(again.status).toBe(400);
      expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    });

    it("refuses a wrong verifier, and burns the token on that first attempt", async () => {
      const { verifier, challenge } = pkce();
      const token = await handoffToken(challenge);
      const wrong = await post("/api/desktop/token", {
        token,
        code_verifier: pkce().verifier,
        device_name: "x",
        platform: "mac",
        app_version: "1",
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({
        error: "invalid_grant",
        error_description: "code_verifier does not match the code_challenge",
      });
      const right = await post("/api/desktop/token", {
        token,
        code_verifier: verifier,
        device_name: "x",
        platform: "mac",
        app_version: "1",
      });
      expect(right.status).toBe(400);
      expect(await right.json()).toMatchObject({ error: "invalid_grant" });
    });

    it("serves /me with the Free plan and a licence verifiable with the JWKS", async () => {
      const response = await me(access);
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        user: unknown;
        entitlement: Record<string, unknown>;
        license: string;
      };
      expect(body.user).toMatchObject({ email: "asha@example.com" });
      expect(body.entitlement).toMatchObject({
        plan: "free",
        status: "active",
        device_limit: 1,
        expires_at: null,
      });
      const keys = createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks.json`));
      const { payload, protectedHeader } = await jwtVerify(body.license, keys, {
        audience: "desktop",
      });
      expect(protectedHeader.alg).toBe("EdDSA");
      expect(payload.entitlement).toEqual(body.entitlement);
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(7 * 24 * 60 * 60);
    });

    it("refuses a second device beyond the plan's limit", async () => {
      const { response } = await signInDevice("Asha's PC");
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        error: "device_limit_reached",
        manage_devices_url: "/account/security",
      });
    });

    it("stores usage once per event id", async () => {
      const events = [
        { id: "evt-1", feature: "serial_monitor", count: 2, at: new Date().toISOString() },
        { id: "evt-2", feature: "pin_map", count: 5, at: new Date().toISOString() },
      ];
      const first = await post("/api/desktop/usage", { events }, access);
      expect(await first.json()).toEqual({ received: 2, stored: 2 });
      const retry = await post("/api/desktop/usage", { events }, access);
      expect(await retry.json()).toEqual({ received: 2, stored: 0 });
      const bad = await post(
        "/api/desktop/usage",
        { events: [{ id: "e", feature: "Bad Feature", count: 1, at: "yesterday" }] },
        access,
      );
      expect(bad.status).toBe(400);
      expect(
        (await post("/api/desktop/usage", { events }, "not-a-valid-token-at-all")).status,
      ).toBe(401);
    });

    it("rotates tokens on refresh, and a reused refresh token signs the device out", async () => {
      const rotated = await post("/api/desktop/refresh", { refresh_token: refresh });
      expect(rotated.status).toBe(200);
      const pair = (await rotated.json()) as { access_token: string; refresh_token: string };
      expect(pair.access_token).not.toBe(access);
      expect((await me(access)).status).toBe(401);
      expect((await me(pair.access_token)).status).toBe(200);

      const reuse = await post("/api/desktop/refresh", { refresh_token: refresh });
      expect(reuse.status).toBe(400);
      expect(await reuse.json()).toMatchObject({ error: "invalid_grant" });
      // Reuse means a leak: the device is out, its current tokens too.
      expect((await me(pair.access_token)).status).toBe(401);
      expect(
        (await post("/api/desktop/refresh", { refresh_token: pair.refresh_token })).status,
      ).toBe(400);
    });

    it("lets the app open the site signed in with a single-use web-session token, after one click", async () => {
      const { response } = await signInDevice("Asha's MacBook again");
      const device = (await response.json()) as { access_token: string };
      const issued = await post("/api/desktop/web-session-token", {}, device.access_token);
      const { token } = (await issued.json()) as { token: string };

      // Opening the link signs nobody in: it asks, and the token stays usable.
      for (let look = 0; look < 2; look++) {
        const landing = await fetch(
          `${server.url}/login-via?token=${token}&next=%2Faccount%2Fusage`,
          { redirect: "manual", headers: BROWSER_HEADERS },
        );
        expect(landing.status).toBe(200);
        expect(landing.headers.getSetCookie()).toEqual([]);
        expect(landing.headers.get("cache-control")).toBe("private, no-store");
        expect(landing.headers.get("referrer-policy")).toMatch(/(^|,\s*)same-origin$/);
        const html = await landing.text();
        expect(html).toContain("Continue as asha@example.com?");
        expect(html).toContain(`name="token" value="${token}"`);
        expect(html).toContain('name="next" value="/account/usage"');
        expect(html).not.toContain("You are signed in as");
      }

      // A client-chosen IP header is replaced by the server's own view of the client.
      const confirmed = await continueAs(token, "/account/usage", {
        "x-pinout-client-ip": "203.0.113.66",
      });
      expect(confirmed.status).toBe(302);
      expect(confirmed.headers.get("location")).toBe("/account/usage");
      expect(confirmed.headers.get("cache-control")).toBe("private, no-store");
      const browser = cookiesFrom(confirmed);
      expect(browser).toContain("session_token");
      expect((await getWithCookies(server, "/account/usage", browser)).status).toBe(200);
      const sessions = await (await getWithCookies(server, "/account/security", browser)).text();
      expect(sessions).toContain("127.0.0.1");
      expect(sessions).not.toContain("203.0.113.66");

      // Spent: the link now goes to sign-in with the error, and so does a second POST.
      const reused = await fetch(`${server.url}/login-via?token=${token}&next=%2Faccount`, {
        redirect: "manual",
        headers: BROWSER_HEADERS,
      });
      expect(reused.status).toBe(302);
      expect(reused.headers.get("location")).toBe("/auth?error=desktop_token&next=%2Faccount");
      const page = await (
        await fetch(server.url + reused.headers.get("location"), { headers: BROWSER_HEADERS })
      ).text();
      expect(page).toContain("This sign-in link from the app has expired or was already used.");
      const again = await continueAs(token, "/account");
      expect(again.status).toBe(302);
      expect(again.headers.get("location")).toBe("/auth?error=desktop_token&next=%2Faccount");
      expect(again.headers.getSetCookie()).toEqual([]);

      // Signing the device out from the account page: its next call is refused.
      const security = await (await getWithCookies(server, "/account/security", cookie)).text();
      const deviceId = /name="deviceId" value="([0-9a-f-]{36})"/.exec(security)?.[1];
      expect(deviceId).toBeTruthy();
      const revoke = await postForm(server, "/account/security", cookie, {
        intent: "revoke-device",
        deviceId: deviceId!,
      });
      expect(revoke.status).toBe(200);
      expect((await me(device.access_token)).status).toBe(401);
    });

    it("tells a browser signed in as someone else, and lets it stay or switch", async () => {
      const ravi = await signUpVerified(server, {
        name: "Ravi Iyer",
        email: "ravi@example.com",
        password: PASSWORD,
      });
      const whoIs = async (browser: string) =>
        (
          (await (await getWithCookies(server, "/api/session", browser)).json()) as {
            user: { email: string } | null;
          }
        ).user?.email;
      const { response } = await signInDevice("Asha's desk PC");
      const device = (await response.json()) as { access_token: string };
      const issued = await post("/api/desktop/web-session-token", {}, device.access_token);
      const { token } = (await issued.json()) as { token: string };

      const landing = await getWithCookies(
        server,
        `/login-via?token=${token}&next=%2Faccount`,
        ravi,
      );
      expect(landing.status).toBe(200);
      expect(landing.headers.getSetCookie()).toEqual([]);
      const html = await landing.text();
      expect(html).toContain("Continue as asha@example.com?");
      expect(html).toContain("You are signed in as ravi@example.com in this browser.");
      // Staying is a plain link to where the app wanted to go: it spends nothing.
      expect(html).toMatch(/<a href="\/account"[^>]*>Stay signed in as ravi@example.com<\/a>/);
      expect(await whoIs(ravi)).toBe("ravi@example.com");

      // A page on another site cannot press the button for the visitor (login CSRF).
      const forged = await continueAs(token, "/account", { cookie: ravi }, "https://evil.example");
      expect(forged.status).toBe(403);
      expect(forged.headers.getSetCookie()).toEqual([]);

      const switched = await continueAs(token, "/account", { cookie: ravi });
      expect(switched.status).toBe(302);
      expect(switched.headers.get("location")).toBe("/account");
      expect(await whoIs(cookiesFrom(switched, ravi))).toBe("asha@example.com");
    });

    it("keeps tokens and secrets out of the logs", () => {
      const output = server.output();
      expect(output).toContain("function call");
      expect(output).not.toContain(access);
      expect(output).not.toContain(refresh);
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toMatch(/"token":"[A-Za-z0-9_-]{40,}"/);
    });
  });
});
