import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_HEADERS, signUpVerified } from "../support/auth";
import { pkce } from "../support/desktop";
import { engines } from "../support/engines";
import { type RunningTestServer, startServer } from "../support/server";

/**
 * Issue 9, point 6: concurrent requests on PostgreSQL (really parallel there; serialised on the
 * embedded database, where the same rules must hold).
 */
describe.each(engines())("desktop races on $name", (engine) => {
  let server: RunningTestServer;
  let cookie = "";

  const handoff = async () => {
    const { verifier, challenge } = pkce();
    const response = await fetch(`${server.url}/api/functions/generateAuthRedirectToken`, {
      method: "POST",
      headers: {
        ...BROWSER_HEADERS,
        "content-type": "application/json",
        origin: server.url,
        cookie,
      },
      body: JSON.stringify({
        data: {
          redirect_uri: "http://127.0.0.1:53682/callback",
          state: "state-1234567",
          code_challenge: challenge,
          code_challenge_method: "S256",
        },
      }),
    });
    const { token } = ((await response.json()) as { result: { token: string } }).result;
    return { token, verifier };
  };
  const exchange = (grant: { token: string; verifier: string }, name: string) =>
    fetch(`${server.url}/api/desktop/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        token: grant.token,
        code_verifier: grant.verifier,
        device_name: name,
        platform: "windows",
        app_version: "1.0.0",
      }),
    });

  beforeAll(async () => {
    server = await startServer({ env: { DATABASE_URL: await engine.freshDatabaseUrl() } });
    cookie = await signUpVerified(server, {
      name: "Racer",
      email: "racer@example.com",
      password: "races-password-123",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lets only as many concurrent sign-ins in as the plan allows", async () => {
    const grants = await Promise.all(Array.from({ length: 20 }, handoff));
    const results = await Promise.all(grants.map((grant, index) => exchange(grant, `PC ${index}`)));
    const statuses = results.map((response) => response.status).sort();
    // The free plan allows one device.
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 403)).toHaveLength(19);
  });

  it("signs the device out when the same refresh token is used twice at once", async () => {
    // The first test's device holds this user's only slot: a second user signs in here.
    const other = await signUpVerified(server, {
      name: "Racer Two",
      email: "racer2@example.com",
      password: "races-password-123",
    });
    cookie = other;
    const pair = (await (await exchange(await handoff(), "Desktop")).json()) as {
      access_token: string;
      refresh_token: string;
    };
    const refresh = () =>
      fetch(`${server.url}/api/desktop/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ refresh_token: pair.refresh_token }),
      });
    const answers = await Promise.all([refresh(), refresh(), refresh()]);
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
    const winner = answers.find((response) => response.status === 200);
    const tokens = winner ? ((await winner.json()) as { access_token: string }) : null;
    // Whoever won, the reuse signed the device out: no token of it works any more.
    for (const token of [pair.access_token, tokens?.access_token].filter(Boolean)) {
      const me = await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(401);
    }
  });
});
