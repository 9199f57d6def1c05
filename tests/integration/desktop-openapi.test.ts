/**
 * Issue 57, point 6: the desktop API's OpenAPI document is valid OpenAPI 3.1 (checked by a
 * well-kept validator), names exactly the routes under /api/desktop, is served by the site, and
 * every answer of every endpoint, success and refusal, matches it. The floating-seat and
 * checkout-link tests check their answers against it too (tests/support/desktop-api.ts).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { desktopOpenApi } from "~/.server/desktop/openapi";
import { signUpVerified } from "../support/auth";
import { desktopHandoff, exchangeHandoff } from "../support/desktop";
import { expectConforms } from "../support/desktop-api";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

/** Every route path under /api/desktop in app/routes.ts. */
function desktopRoutes(entries: readonly RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const here = entry.path ? `${parent}/${entry.path}` : parent;
    return [
      ...(entry.path && here.startsWith("/api/desktop/") ? [here] : []),
      ...desktopRoutes(entry.children ?? [], here),
    ];
  });
}

describe("the desktop API's OpenAPI document", () => {
  it("is valid OpenAPI 3.1 and describes exactly the routes under /api/desktop", async () => {
    const document = desktopOpenApi();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(document.paths).sort()).toEqual(desktopRoutes(routes).sort());
  });
});

describe("the check of an answer against the document", () => {
  const answer = (path: string, status: number, body: unknown) => {
    const response = Response.json(body, { status });
    Object.defineProperty(response, "url", { value: `http://127.0.0.1${path}` });
    return response;
  };
  it("fails an answer missing a field, an undocumented status and an unknown error code", async () => {
    await expect(
      expectConforms("GET", answer("/api/desktop/me", 200, { user: {} })),
    ).rejects.toThrow(/matches the document/);
    await expect(
      expectConforms("POST", answer("/api/desktop/logout", 409, { error: "x" })),
    ).rejects.toThrow(/documents 409/);
    await expect(
      expectConforms(
        "GET",
        answer("/api/desktop/me", 401, { error: "teapot", error_description: "short and stout" }),
      ),
    ).rejects.toThrow(/matches the document/);
  });
});

describe("the desktop API's answers", () => {
  let server: RunningTestServer;
  let limited: RunningTestServer;
  beforeAll(async () => {
    server = await startServerOn(httpEngine(), { env: { AUTH_RATE_LIMIT: "100" } });
    limited = await startServerOn(httpEngine(), { env: { API_RATE_LIMIT: "1" } });
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), limited?.stop()]);
  });

  const call = (
    method: "GET" | "POST",
    path: string,
    options: { token?: string; body?: unknown; type?: string; on?: RunningTestServer } = {},
  ) =>
    fetch(`${(options.on ?? server).url}${path}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined
          ? {}
          : { "content-type": options.type ?? "application/json" }),
      },
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === "string"
            ? options.body
            : JSON.stringify(options.body),
    });
  /** The answer, checked against the document, with its status. */
  const conforms = async (method: "GET" | "POST", response: Response, status: number) => {
    expect(response.status, `${method} ${new URL(response.url).pathname}`).toBe(status);
    return (await expectConforms(method, response)) as Record<string, unknown>;
  };

  it("every endpoint's successes and refusals match the document", async () => {
    const served = await call("GET", "/api/desktop/openapi.json");
    expect(await conforms("GET", served, 200)).toEqual(
      JSON.parse(JSON.stringify(desktopOpenApi())),
    );

    const cookie = await signUpVerified(server, {
      name: "Tara",
      email: "tara@example.com",
      password: "openapi-password-1",
    });
    // token: signed in, the same token again, a malformed body, not JSON.
    const handoff = await desktopHandoff(server, cookie);
    const signedIn = await conforms(
      "POST",
      await exchangeHandoff(server, handoff, "Tara's Mac", { machine_id: "openapi-machine-1" }),
      200,
    );
    const access = String(signedIn.access_token);
    const again = await conforms("POST", await exchangeHandoff(server, handoff, "Tara's Mac"), 400);
    expect(again.error).toBe("invalid_grant");
    await conforms("POST", await call("POST", "/api/desktop/token", { body: { token: "x" } }), 400);
    await conforms(
      "POST",
      await call("POST", "/api/desktop/token", { body: "token=x", type: "text/plain" }),
      415,
    );
    // Free has one device slot: a second machine is refused.
    const second = await conforms(
      "POST",
      await exchangeHandoff(server, await desktopHandoff(server, cookie), "Tara's PC"),
      403,
    );
    expect(second.error).toBe("device_limit_reached");

    // refresh: new tokens, then the old refresh token again (which signs the device out).
    const refreshed = await conforms(
      "POST",
      await call("POST", "/api/desktop/refresh", {
        body: { refresh_token: signedIn.refresh_token },
      }),
      200,
    );
    const token = String(refreshed.access_token);
    await conforms("POST", await call("POST", "/api/desktop/refresh", { body: {} }), 400);

    // me, heartbeat, wait: answers, and 401 without a token or with the old one.
    const me = await conforms("GET", await call("GET", "/api/desktop/me", { token }), 200);
    // The access token the refresh replaced no longer works.
    await conforms("GET", await call("GET", "/api/desktop/me", { token: access }), 401);
    await conforms("GET", await call("GET", "/api/desktop/me"), 401);
    const checkIn = await conforms(
      "POST",
      await call("POST", "/api/desktop/heartbeat", { token }),
      200,
    );
    expect(checkIn.floating_seat).toBeNull();
    await conforms("POST", await call("POST", "/api/desktop/heartbeat"), 401);
    const waited = await conforms(
      "GET",
      await call("GET", `/api/desktop/wait?since=${String(me.entitlement_tag)}&timeout=1`, {
        token,
      }),
      200,
    );
    expect(waited.changed).toBe(false);
    await conforms("GET", await call("GET", "/api/desktop/wait?since=nope", { token }), 400);

    // trial: started, then refused with its reason.
    await conforms("POST", await call("POST", "/api/desktop/trial", { token }), 200);
    const refusedTrial = await conforms(
      "POST",
      await call("POST", "/api/desktop/trial", { token }),
      409,
    );
    expect(refusedTrial.reason).toBe("trial-running");
    const onTrial = await conforms("GET", await call("GET", "/api/desktop/me", { token }), 200);
    expect(onTrial.trial).not.toBeNull();

    // usage: stored, a bad event, too large.
    const event = { id: "e1", feature: "pin_map", count: 2, at: new Date().toISOString() };
    await conforms(
      "POST",
      await call("POST", "/api/desktop/usage", { token, body: { events: [event] } }),
      200,
    );
    await conforms(
      "POST",
      await call("POST", "/api/desktop/usage", { token, body: { events: [] } }),
      400,
    );
    await conforms(
      "POST",
      await call("POST", "/api/desktop/usage", {
        token,
        body: { events: [{ ...event, feature: "x".repeat(70_000) }] },
      }),
      413,
    );

    // checkout-link: a link, a bad errand, another team's seats.
    await conforms(
      "POST",
      await call("POST", "/api/desktop/checkout-link", {
        token,
        body: { action: "buy", plan: "pro-monthly" },
      }),
      200,
    );
    await conforms(
      "POST",
      await call("POST", "/api/desktop/checkout-link", { token, body: { action: "refund" } }),
      400,
    );
    await conforms(
      "POST",
      await call("POST", "/api/desktop/checkout-link", {
        token,
        body: { action: "seats", team_id: "no-such-team", seats: 2, cycle: "monthly" },
      }),
      403,
    );
    await conforms("POST", await call("POST", "/api/desktop/web-session-token", { token }), 200);
    await conforms("POST", await call("POST", "/api/desktop/release-seat", { token }), 200);

    // A machine the trial let in, once the trial is gone: its check-in is refused by the limit.
    const bench = await conforms(
      "POST",
      await exchangeHandoff(server, await desktopHandoff(server, cookie), "Tara's bench"),
      200,
    );
    await server.sql("delete from entitlement_grants");
    await server.sql(
      "update desktop_devices set last_seen_at = now() - interval '1 hour' where name = 'Tara''s Mac'",
    );
    await conforms("GET", await call("GET", "/api/desktop/me", { token }), 403);
    await conforms("POST", await call("POST", "/api/desktop/heartbeat", { token }), 403);
    await conforms(
      "GET",
      await call("GET", `/api/desktop/wait?since=${String(me.entitlement_tag)}&timeout=1`, {
        token,
      }),
      403,
    );

    // logout: signed out, and then its token is refused everywhere.
    const benchToken = String(bench.access_token);
    await conforms("POST", await call("POST", "/api/desktop/logout", { token: benchToken }), 200);
    for (const path of [
      "/api/desktop/logout",
      "/api/desktop/release-seat",
      "/api/desktop/trial",
      "/api/desktop/usage",
      "/api/desktop/web-session-token",
      "/api/desktop/checkout-link",
    ])
      await conforms("POST", await call("POST", path, { token: benchToken, body: {} }), 401);
    await conforms("GET", await call("GET", "/api/desktop/wait?since=0000000000000000"), 401);

    // The rate limit's refusal, on a site that allows one request.
    await call("GET", "/api/desktop/openapi.json", { on: limited });
    const limitedAnswer = await call("GET", "/api/desktop/me", { on: limited });
    await conforms("GET", limitedAnswer, 429);
    expect(Number(limitedAnswer.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
