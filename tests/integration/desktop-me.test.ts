/**
 * `/api/desktop/me` is answered before express and React Router (server/fast-answers.ts,
 * docs/decisions/0032): the device, its user and the entitlement in one statement (with the API
 * rate limit's count on PostgreSQL), and each process hands a device the licence it signed for it
 * in the last minute when that licence says the same thing. What an app gets must not depend on
 * the way its request went, and nothing may be stale: a device signed out or revoked on one
 * process is refused by every other at once, and a changed entitlement shows in the next answer
 * (and its licence) everywhere.
 */
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getWithCookies, postForm, postJson, signUpVerified } from "../support/auth";
import { buyThroughSandbox } from "../support/billing";
import { signInDevice } from "../support/desktop";
import { createDatabase, engines } from "../support/engines";
import { raw, type RawAnswer } from "../support/raw-http";
import { type RunningTestServer, startServer } from "../support/server";

const postgresUrl = inject("postgresUrl");
const PASSWORD = "desktop-me-password-1";

/** The licence in a body, as what it says: the same claims but when it was signed. */
function comparable(answer: RawAnswer): RawAnswer {
  if (!answer.body.startsWith("{")) return answer;
  const body = JSON.parse(answer.body) as { license?: string };
  if (!body.license) return answer;
  const { iat, exp, ...claims } = decodeJwt(body.license);
  expect((exp ?? 0) - (iat ?? 0)).toBe(7 * 24 * 60 * 60);
  const license = { header: decodeProtectedHeader(body.license), claims };
  return { ...answer, body: JSON.stringify({ ...body, license }) };
}

async function me(server: RunningTestServer, token: string) {
  const response = await fetch(`${server.url}/api/desktop/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = response.status === 200 ? ((await response.json()) as MeBody) : null;
  return { status: response.status, body };
}

interface MeBody {
  user: { email: string };
  entitlement: { plan: string; device_limit: number; expires_at: string | null };
  license: string;
}

describe.each(engines())("/api/desktop/me answered before express on $name", (engine) => {
  let server: RunningTestServer;
  let access = "";

  beforeAll(async () => {
    server = await startServer({ env: { DATABASE_URL: await engine.freshDatabaseUrl() } });
    const cookie = await signUpVerified(server, {
      name: "Fast Asha",
      email: "fast-asha@example.com",
      password: PASSWORD,
    });
    access = await signInDevice(server, cookie, "Fast Mac");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("has no .data spelling of any resource route: 404, never the licence without no-store (issue 32, point 4)", async () => {
    const headers = { authorization: `Bearer ${access}` };
    for (const [method, path] of [
      ["GET", "/api/desktop/me.data"],
      ["GET", "/API/Desktop/me.data"],
      ["POST", "/api/desktop/refresh.data"],
      ["GET", "/api/session.data"],
      ["GET", "/updates/stable/latest.yml.data"],
      ["GET", "/sitemap.xml.data"],
    ] as const) {
      const response = await fetch(server.url + path, { method, headers });
      const body = await response.text();
      expect(response.status, path).toBe(404);
      expect(response.headers.get("cache-control"), path).toContain("no-store");
      expect(body, path).not.toContain("license");
      if (path.toLowerCase().startsWith("/api/"))
        expect(JSON.parse(body)).toMatchObject({ error: "not_found" });
    }
    // A page's data keeps its single-fetch URL.
    expect((await fetch(`${server.url}/pricing.data`)).status).toBe(200);
  });

  it("reads an absolute-form request target as its path, and refuses other forms with 400 (issue 32, point 5)", async () => {
    const port = Number(new URL(server.url).port);
    const ask = (target: string) =>
      raw(
        port,
        `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${access}\r\n\r\n`,
      );
    const asPath = comparable(await ask("/api/desktop/me"));
    expect(asPath.status).toBe("HTTP/1.1 200 OK");
    for (const target of [
      `http://127.0.0.1:${port}/api/desktop/me`,
      "HTTP://another.example/api/desktop/me",
    ])
      expect(comparable(await ask(target)), target).toEqual(asPath);
    expect((await ask("http://x/api/webhooks/razorpay/../../desktop/me")).status).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    for (const target of ["*", "mailto:a@example.com", "http://"]) {
      const answer = await ask(target);
      expect(answer.status, target).toBe("HTTP/1.1 400 Bad Request");
    }
    expect(server.output()).not.toContain("unhandled server error");
  });

  it("answers every case exactly as React Router does, and answers it fast", async () => {
    const port = Number(new URL(server.url).port);
    const authorizations = [
      `Authorization: Bearer ${access}\r\n`,
      `Authorization: Bearer ${access}\r\nX-App-Version: 2.1.0\r\n`,
      `Authorization: Bearer ${access}\r\nX-App-Version: not-a-version\r\n`,
      "",
      "Authorization: Bearer short\r\n",
      `Authorization: Basic ${access}\r\n`,
      `Authorization: Bearer ${"x".repeat(43)}\r\n`,
    ];
    const variants = [
      "GET /api/desktop/me|",
      "GET /api/desktop/me|Accept-Encoding: gzip, deflate, br\r\n",
      "GET /api/desktop/me|Accept-Encoding: deflate\r\n",
      "GET /API/Desktop/me|Accept-Encoding: gzip\r\n",
      "HEAD /api/desktop/me|",
    ];
    let compared = 0;
    for (const authorization of authorizations) {
      for (const variant of variants) {
        const [line, extra] = variant.split("|") as [string, string];
        const head = `${line} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${authorization}${extra}`;
        const fast = await raw(port, `${head}\r\n`);
        // A GET with a body (even empty) is never answered fast: what React Router answers.
        const app = await raw(port, `${head}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`);
        expect(comparable(fast), `${variant} ${authorization}`).toEqual(comparable(app));
        expect(fast.status).toMatch(/^HTTP\/1\.1 (200 OK|401 Unauthorized)$/);
        compared++;
      }
    }
    expect(compared).toBe(authorizations.length * variants.length);
    const answeredFast = server
      .logs()
      .filter((line) => line.msg === "request" && line.answer === "fast" && line.path !== undefined)
      .map((line) => String(line.path).toLowerCase());
    expect(answeredFast.filter((path) => path === "/api/desktop/me").length).toBeGreaterThan(0);
  });

  it("counts fast answers and the app's in the one rate limit, and refuses the same way", async () => {
    const limited = await startServer({
      env: { DATABASE_URL: await engine.freshDatabaseUrl(), API_RATE_LIMIT: "6" },
    });
    try {
      const port = Number(new URL(limited.url).port);
      const head = "GET /api/desktop/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
      const answers: RawAnswer[] = [];
      for (let i = 0; i < 5; i++) {
        answers.push(await raw(port, `${head}\r\n`));
        answers.push(await raw(port, `${head}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`));
      }
      expect(answers.map((answer) => answer.status.split(" ")[1])).toEqual([
        ...Array<string>(6).fill("401"),
        ...Array<string>(4).fill("429"),
      ]);
      // The refusals, fast and not, are the same (but the seconds left in the window).
      const refusal = (answer: RawAnswer) => ({
        ...answer,
        headers: answer.headers.map((header) =>
          header.replace(/^retry-after: \d+$/, "retry-after"),
        ),
      });
      expect(refusal(answers[6]!)).toEqual(refusal(answers[7]!));
      expect(answers[6]!.headers).toContainEqual(expect.stringMatching(/^retry-after: [1-9]\d*$/));
      expect(JSON.parse(answers[6]!.body)).toEqual({
        error: "rate_limited",
        error_description: "Too many requests. Try again shortly.",
      });
      // The rest of the desktop API shares the count.
      const refresh = await postJson(limited, "/api/desktop/refresh", { refresh_token: "x" });
      expect(refresh.status).toBe(429);
    } finally {
      await limited.stop();
    }
  });
});

// PostgreSQL is required in CI (global setup fails without it), so this never silently skips there.
describe.runIf(postgresUrl)("/api/desktop/me on two processes of one PostgreSQL", () => {
  let one: RunningTestServer;
  let two: RunningTestServer;
  let boss = "";

  beforeAll(async () => {
    const env = {
      DATABASE_URL: await createDatabase(postgresUrl),
      ADMIN_EMAILS: "boss@example.com",
      // Six people sign up here from one address.
      AUTH_RATE_LIMIT: "100",
    };
    one = await startServer({ env });
    // Either may send a mail; the test servers of one database share an outbox.
    two = await startServer({ env });
    boss = await signUpVerified(one, {
      name: "Boss",
      email: "boss@example.com",
      password: PASSWORD,
    });
  });
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  });

  /** A customer signed up (on the first process) with the app signed in. */
  async function customer(email: string) {
    const cookie = await signUpVerified(one, { name: "Two", email, password: PASSWORD });
    return { cookie, access: await signInDevice(one, cookie, "Two Mac") };
  }

  it("refuses at once, on the other process, a device signed out, revoked or revoked by an admin", async () => {
    // Signed out by the app itself on one process.
    const first = await customer("sign-out@example.com");
    expect((await me(two, first.access)).status).toBe(200);
    const logout = await fetch(`${one.url}/api/desktop/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.access}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(logout.status).toBe(200);
    expect((await me(two, first.access)).status).toBe(401);

    // Signed out from the account page.
    const second = await customer("revoked@example.com");
    expect((await me(two, second.access)).status).toBe(200);
    const security = await (await getWithCookies(one, "/account/security", second.cookie)).text();
    const deviceId = /name="deviceId" value="([0-9a-f-]{36})"/.exec(security)?.[1] ?? "";
    const revoked = await postForm(one, "/account/security", second.cookie, {
      intent: "revoke-device",
      deviceId,
    });
    expect(revoked.status).toBe(200);
    expect((await me(two, second.access)).status).toBe(401);

    // Revoked by an admin (admin fix) on the second process.
    const third = await customer("admin-revoked@example.com");
    expect((await me(one, third.access)).status).toBe(200);
    const fix = "/admin-fix-subscription?email=admin-revoked%40example.com";
    const page = await (await getWithCookies(two, fix, boss)).text();
    const userId = /name="userId" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const adminDeviceId = /name="deviceId" value="([0-9a-f-]{36})"/.exec(page)?.[1] ?? "";
    expect(adminDeviceId).not.toBe("");
    const byAdmin = await postForm(two, fix, boss, {
      intent: "revoke-device",
      userId,
      deviceId: adminDeviceId,
    });
    expect(byAdmin.status).toBe(200);
    expect((await me(two, third.access)).status).toBe(401);
    expect((await me(one, third.access)).status).toBe(401);
  });

  it("shows an entitlement changed on the other process in the next answer and its licence", async () => {
    const { access } = await customer("granted@example.com");
    // Both processes have signed (and keep) a Free licence for this device.
    for (const server of [one, two]) {
      const before = await me(server, access);
      expect(before.body?.entitlement.plan).toBe("free");
      expect(decodeJwt(before.body!.license).entitlement).toEqual(before.body!.entitlement);
    }
    const fix = "/admin-fix-subscription?email=granted%40example.com";
    const userId =
      /name="userId" value="([^"]+)"/.exec(
        await (await getWithCookies(two, fix, boss)).text(),
      )?.[1] ?? "";
    const granted = await postForm(two, fix, boss, {
      intent: "grant",
      userId,
      planId: "pro-yearly",
      days: "30",
      reason: "Conference speaker",
    });
    expect(granted.status).toBe(200);
    for (const server of [one, two]) {
      const after = await me(server, access);
      expect(after.body?.entitlement).toMatchObject({ plan: "pro-yearly", device_limit: 3 });
      expect(decodeJwt(after.body!.license).entitlement).toEqual(after.body!.entitlement);
    }
  });

  it("shows a payment made through one process in the other's next answer", async () => {
    const { cookie, access } = await customer("buyer@example.com");
    expect((await me(two, access)).body?.entitlement.plan).toBe("free");
    await buyThroughSandbox(one, cookie, "pro-monthly");
    const after = await me(two, access);
    expect(after.body?.entitlement).toMatchObject({ plan: "pro-monthly", device_limit: 3 });
    expect(decodeJwt(after.body!.license).entitlement).toEqual(after.body!.entitlement);
  });
});
