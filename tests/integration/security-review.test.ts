/**
 * Issue 25: what an adversarial review found after hardening, each reproduced as the review did it
 * and refused. Point 1 (the Better Auth allow-list) is in auth-endpoints.test.ts, 7 and 9 (the
 * embedded database's folder) beside the code in app/.server/db, 10 (GA4) in
 * app/lib/analytics/ga4.test.ts, and the click of point 5 in tests/e2e/desktop.spec.ts.
 */
import fs from "node:fs";
import http from "node:http";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BROWSER_HEADERS,
  desktopOpenedBrowser,
  getWithCookies,
  postForm,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import { buyThroughSandbox } from "../support/billing";
import { pageText, textOf } from "../support/pages";
import { signInDevice } from "../support/desktop";
import { engines } from "../support/engines";
import { type RazorpayProxy, startRazorpayProxy } from "../support/razorpay-proxy";
import {
  type RunningTestServer,
  startServer,
  startServerProcess,
  type TestServerProcess,
} from "../support/server";

const PASSWORD = "security-review-password-1";
const MB = 1024 * 1024;

/** The server process's resident memory, in bytes. */
function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? "0");
  return kb * 1024;
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** How many bytes of the body the client had written when the answer came. */
  sentBeforeAnswer: number;
}

/**
 * A request as curl --path-as-is sends it: the path exactly as given (fetch would resolve dot
 * segments first), a body of `size` bytes written in pieces (declared or chunked), and the answer
 * read while the body is still going out.
 */
function rawPost(
  base: string,
  path: string,
  size: number,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: url.hostname,
      port: url.port,
      method: "POST",
      path,
      headers,
    });
    let sent = 0;
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      const sentBeforeAnswer = sent;
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          sentBeforeAnswer,
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    const piece = Buffer.alloc(256 * 1024, 0x20);
    const pump = () => {
      while (sent < size && !answered) {
        const next = piece.subarray(0, Math.min(piece.length, size - sent));
        sent += next.length;
        if (!request.write(next)) return void request.once("drain", pump);
      }
      request.end();
    };
    // With Expect: 100-continue the body waits for the server's go-ahead (or its refusal).
    if (headers.expect) request.once("continue", pump);
    else pump();
  });
}

/** Samples the server's RSS while `work` runs; the growth over the starting value. */
async function rssGrowthDuring<T>(pid: number, work: () => Promise<T>) {
  const before = rssOf(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  try {
    const result = await work();
    peak = Math.max(peak, rssOf(pid));
    return { result, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

describe("request bodies and paths (points 2-4)", () => {
  // A process of its own: these tests measure how much the server's memory grows.
  let server: TestServerProcess;

  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses paths with dot segments before routing: the webhook's path cannot lend its cap", async () => {
    for (const path of [
      "/api/webhooks/razorpay/../../desktop/token",
      "/api/webhooks/razorpay/%2e%2e/%2E%2E/desktop/token",
      "/api/webhooks/razorpay\\..\\..\\desktop/token",
    ]) {
      const { result, growth } = await rssGrowthDuring(server.process.pid!, () =>
        rawPost(server.url, path, 50 * MB, { "content-type": "application/json" }),
      );
      expect(result.status, path).toBe(400);
      expect(result.body).toContain("dot segments");
      expect(growth, path).toBeLessThan(50 * MB);
    }
    // The same body to the resolved path is capped like any API body.
    const direct = await rawPost(server.url, "/api/desktop/token", 50 * MB, {
      "content-type": "application/json",
    });
    expect(direct.status).toBe(413);
  });

  it("stops reading a chunked webhook body at 256 KB and answers 413", async () => {
    const { result, growth } = await rssGrowthDuring(server.process.pid!, () =>
      rawPost(server.url, "/api/webhooks/razorpay", 50 * MB, {
        "content-type": "application/json",
        "transfer-encoding": "chunked",
      }),
    );
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toEqual({
      error: "Request body too large: the limit is 256 KB.",
    });
    expect(result.headers.connection).toBe("close");
    expect(growth).toBeLessThan(50 * MB);
  });

  it("answers 413 (not a reset) to a large declared body, before 100 Continue when asked", async () => {
    const declared = {
      "content-type": "application/json",
      "content-length": String(50 * MB),
    };
    const { result, growth } = await rssGrowthDuring(server.process.pid!, () =>
      rawPost(server.url, "/api/desktop/token", 50 * MB, declared),
    );
    expect(result.status).toBe(413);
    expect(result.headers.connection).toBe("close");
    expect(JSON.parse(result.body)).toEqual({
      error: "Request body too large: the limit is 64 KB.",
    });
    expect(growth).toBeLessThan(50 * MB);

    // A form post as a browser sends it: with Origin (one without is refused before its body).
    const twelve = await rawPost(server.url, "/feedback", 12 * MB, {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(12 * MB),
      origin: server.url,
    });
    expect(twelve.status).toBe(413);
    expect(twelve.body).toBe("Request body too large: the limit is 1 MB.");

    // Expect: 100-continue: the refusal comes instead of the go-ahead, and no byte is sent.
    const waiting = await rawPost(server.url, "/api/desktop/token", 50 * MB, {
      ...declared,
      expect: "100-continue",
    });
    expect(waiting.status).toBe(413);
    expect(waiting.sentBeforeAnswer).toBe(0);
    expect(waiting.headers.connection).toBe("close");
    // A body that fits still gets its 100 Continue and reaches the action.
    const small = JSON.stringify({ token: "x", code_verifier: "y" });
    const fits = await rawPost(server.url, "/api/desktop/token", Buffer.byteLength(small), {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(small)),
      expect: "100-continue",
    });
    expect(fits.status).toBe(400);
  });
});

// Issue 32, point 7: a Mac file without `ed_signature` was read whole into memory to be signed
// (400 MB took the server from 676 to 1,282 MB). It is signed from storage as a stream now.
describe("a release file signed by the site", () => {
  let server: TestServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ env: { ADMIN_EMAILS: "ops@example.com" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("signs a 200 MB Mac update, then serves it in parts, with the server's memory flat", async () => {
    const cookie = await signUpVerified(server, {
      name: "Ops",
      email: "ops@example.com",
      password: PASSWORD,
    });
    const created = await postForm(server, "/admin/releases", cookie, {
      intent: "token",
      name: "build",
    });
    const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      });
    const draft = await api("/api/admin/releases", {
      method: "POST",
      body: JSON.stringify({ version: "7.0.0" }),
    });
    expect(draft.status).toBe(201);
    const { id } = (await draft.json()) as { id: string };

    const size = 200 * MB;
    const chunk = randomBytes(MB);
    const { result, growth } = await rssGrowthDuring(
      server.process.pid!,
      () =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = http.request(
            `${server.url}/api/admin/releases/${id}/files/Pinout-7.0.0-mac.zip`,
            {
              method: "PUT",
              headers: {
                authorization: `Bearer ${token}`,
                "content-type": "application/octet-stream",
                "content-length": String(size),
              },
            },
            (response) => {
              let body = "";
              response.on("data", (data: Buffer) => (body += data.toString()));
              response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
            },
          );
          request.on("error", reject);
          let sent = 0;
          const pump = () => {
            while (sent < size) {
              sent += chunk.length;
              if (!request.write(chunk)) return void request.once("drain", pump);
            }
            request.end();
          };
          pump();
        }),
    );
    expect(result.status, result.body).toBe(201);
    expect(JSON.parse(result.body)).toMatchObject({ size, signed: { sparkle: true } });
    expect(growth).toBeLessThan(50 * MB);

    // Issue 58: the same 200 MB answered in parts (a multi-range request, as electron-updater
    // makes) is streamed part after part: the memory stays flat, and every byte arrives.
    // A release is published with an installer.
    const installer = await fetch(`${server.url}/api/admin/releases/${id}/files/Pinout-7.0.0.dmg`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: randomBytes(4096),
    });
    expect(installer.status, await installer.clone().text()).toBe(201);
    const published = await api(`/api/admin/releases/${id}`, {
      method: "POST",
      body: JSON.stringify({ action: "publish" }),
    });
    expect(published.status, await published.clone().text()).toBe(200);
    const served = await rssGrowthDuring(
      server.process.pid!,
      () =>
        new Promise<{ status: number; received: number }>((resolve, reject) => {
          http
            .get(
              `${server.url}/releases/7.0.0/Pinout-7.0.0-mac.zip`,
              { headers: { range: `bytes=0-${100 * MB - 1},${100 * MB}-,-10` } },
              (response) => {
                let received = 0;
                response.on("data", (data: Buffer) => (received += data.length));
                response.on("end", () => resolve({ status: response.statusCode ?? 0, received }));
              },
            )
            .on("error", reject);
        }),
    );
    expect(served.result.status).toBe(206);
    // Both halves and the overlapping last 10 bytes (merged into the second half), with headers.
    expect(served.result.received).toBeGreaterThan(size);
    expect(served.result.received).toBeLessThan(size + 1000);
    expect(served.growth).toBeLessThan(50 * MB);
  });
});

describe("the sandbox on a public site (point 8)", () => {
  it("refuses to start when SITE_URL is not this machine, http included", async () => {
    const refused = await startServerProcess({
      env: { SITE_URL: "http://shop.example.com" },
      expectExit: true,
    });
    expect(refused.output()).toMatch(
      /PAYMENTS_PROVIDER: the payment sandbox would let anyone who reaches http:\/\/shop\.example\.com get Pro without paying/,
    );
    expect(refused.output()).toContain("PAYMENTS_SANDBOX_PUBLIC=1");
  });
});

describe("a proxy without TRUST_PROXY (point 12)", () => {
  it("says once, at the first forwarded request, what to set", async () => {
    const server = await startServer();
    try {
      for (let i = 0; i < 3; i++)
        await fetch(`${server.url}/pricing`, { headers: { "x-forwarded-for": `203.0.113.${i}` } });
      await fetch(`${server.url}/healthz`, { headers: { "x-forwarded-for": "203.0.113.9" } });
      const warnings = server
        .logs()
        .filter((line) => String(line.msg).includes("TRUST_PROXY is not set"));
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0]?.msg)).toMatch(/Set TRUST_PROXY to the proxy's address/);
    } finally {
      await server.stop();
    }
    const trusted = await startServer({ env: { TRUST_PROXY: "loopback" } });
    try {
      await fetch(`${trusted.url}/pricing`, { headers: { "x-forwarded-for": "203.0.113.1" } });
      expect(trusted.output()).not.toContain("TRUST_PROXY is not set");
    } finally {
      await trusted.stop();
    }
  });
});

describe.each(engines())("signed-in attacks on $name (points 5, 6, 11)", (engine) => {
  let server: RunningTestServer;
  let boss: string;
  /** Razorpay's REST calls the site made, counted by a proxy in front of the sandbox. */
  let proxy: RazorpayProxy;

  beforeAll(async () => {
    proxy = await startRazorpayProxy();
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "1000", RAZORPAY_API_URL: proxy.apiUrl },
    }));
    proxy.retarget(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
  });

  /** The app → web sign-in: a browser session opened from the boss's desktop token. */
  const desktopBrowser = async () =>
    desktopOpenedBrowser(server, await signInDevice(server, boss, "Boss laptop"), "/admin");

  it("point 5: opening a handoff link issues nothing; the Connect button does", async () => {
    const challenge = createHash("sha256")
      .update(randomBytes(32).toString("base64url"))
      .digest("base64url");
    const query = new URLSearchParams({
      client: "desktop",
      redirect_uri: "http://127.0.0.1:53999/cb",
      state: "state-attacker-1",
      code_challenge: challenge,
      code_challenge_method: "S256",
      device_name: '<img src=x onerror="alert(1)">',
      platform: "windows",
    });
    const opened = await getWithCookies(server, `/login-via?${query}`, boss);
    expect(opened.status).toBe(200);
    const html = await opened.text();
    expect(html).not.toContain("/login-success?token=");
    expect(html).not.toContain("127.0.0.1:53999/cb?");
    expect(html).not.toContain('<img src=x onerror="alert(1)">');
    expect(textOf(html)).toContain(
      'The Pinout app on <img src=x onerror="alert(1)"> (Windows) asks to sign in to your account',
    );
    expect(textOf(html)).toContain("Connect the Pinout app on this computer to boss@example.com");
    // The .data request the client router makes is a read too: still no token.
    const data = await getWithCookies(server, `/login-via.data?${query}`, boss);
    expect(await data.text()).not.toMatch(/login-success\?token=/);

    const pressed = await postForm(server, `/login-via?${query}`, boss, {});
    expect(pressed.status).toBe(302);
    expect(pressed.headers.get("location")).toMatch(/^\/login-success\?token=/);
  });

  it("point 6: a desktop-opened browser has no admin power until it confirms it's you", async () => {
    const browser = await desktopBrowser();
    const dashboard = await getWithCookies(server, "/admin", browser);
    expect(dashboard.status).toBe(200);
    expect(textOf(await dashboard.text())).toContain(
      "This browser was signed in from the desktop app: you can look around, but changes here wait until you confirm it's you",
    );

    const token = await postForm(server, "/admin/releases", browser, {
      intent: "token",
      name: "stolen-ci",
    });
    expect(token.status).toBe(403);
    expect(textOf(await token.text())).toContain("Confirm your password first");
    const role = await postForm(server, "/admin/users", browser, {
      intent: "set-role",
      userId: "whoever",
      role: "admin",
    });
    expect(role.status).toBe(403);
    const api = await fetch(`${server.url}/api/admin/releases`, {
      method: "POST",
      headers: {
        ...BROWSER_HEADERS,
        "content-type": "application/json",
        origin: server.url,
        cookie: browser,
      },
      body: JSON.stringify({ version: "9.9.9", channel: "stable" }),
    });
    expect(api.status).toBe(403);
    expect(((await api.json()) as { error: string }).error).toContain(
      "Confirm your password first",
    );
    const releases = await pageText(server, "/admin/releases", boss);
    expect(releases).not.toContain("stolen-ci");
    expect(releases).not.toContain("9.9.9");

    // "Confirm it's you" on the security page opens admin actions for this browser too.
    const stepUp = await postForm(server, "/account/security", browser, {
      intent: "step-up",
      password: PASSWORD,
    });
    expect(stepUp.status).toBe(200);
    const after = await postForm(server, "/admin/releases", browser, {
      intent: "token",
      name: "confirmed-ci",
    });
    expect(after.status).toBe(200);
    // A browser signed in with the password was never held back.
    const normal = await postForm(server, "/admin/releases", boss, {
      intent: "token",
      name: "boss-ci",
    });
    expect(normal.status).toBe(200);
  });

  it("point 11: /fix-subscription does not spend Razorpay's quota on every load", async () => {
    const cookie = await signUpVerified(server, {
      name: "Sub Scriber",
      email: "subscriber@example.com",
      password: PASSWORD,
    });
    const subscriptionId = await buyThroughSandbox(server, cookie);

    const ofThisOne = () => proxy.lookups.filter((url) => url.includes(subscriptionId)).length;
    // The checkout's own lookups (the resync and webhook jobs) finish first.
    await server.jobsSettled();
    const before = ofThisOne();
    for (let i = 0; i < 20; i++) {
      const page = await getWithCookies(server, "/fix-subscription", cookie);
      expect(page.status).toBe(200);
      const text = textOf(await page.text());
      expect(text).toContain("Check with Razorpay again");
    }
    // One lookup, then the answer of the last minute.
    expect(ofThisOne() - before).toBe(1);

    // Resync asks Razorpay each time, up to its own limit.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await postForm(server, "/fix-subscription", cookie, { intent: "resync" })).status,
      );
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const refused = await postForm(server, "/fix-subscription", cookie, { intent: "resync" });
    expect(textOf(await refused.text())).toMatch(
      /You checked with Razorpay many times in a short while\. Try again in \d+ minutes?\./,
    );
  });
});
