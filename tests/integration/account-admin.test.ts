import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  authPost,
  BROWSER_HEADERS,
  cookiesFrom,
  getWithCookies,
  postForm,
  signUpAdmin,
  signUpVerified,
} from "../support/auth";
import { textOf } from "../support/pages";
import { runScript } from "../support/cli";
import { engines } from "../support/engines";
import { titleOf } from "../support/html";
import { type RunningTestServer, startServer, startedDataDir } from "../support/server";

const PASSWORD = "account-admin-password-1";
const SECRET = "integration-test-secret-0123456789abcdef";
const ADMIN_PAGES = [
  "/admin",
  "/admin/users",
  "/admin/subscriptions",
  "/admin/disputes",
  "/admin/retention",
  "/admin-fix-subscription",
];
const EMPTY_USAGE = "Usage appears here once the desktop app is signed in and used.";

/** The value of the first hidden input with that name. */
function hiddenValue(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];
  if (!value) throw new Error(`no hidden input ${name} in the page`);
  return value;
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

describe.each(engines())("account and admin pages on $name", (engine) => {
  const dataDir = startedDataDir(engine);
  let databaseUrl: string | undefined;
  let server: RunningTestServer;
  let boss: string;
  let asha: string;
  let deviceAccess = "";

  const start = async () => {
    server = await startServer({
      dataDir,
      env: {
        DATABASE_URL: databaseUrl,
        ADMIN_EMAILS: ADMIN_EMAIL,
        AUTH_RATE_LIMIT: "100",
      },
    });
  };
  const cliEnv = () => ({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: SECRET,
  });
  const page = async (path: string, cookie: string) => {
    const response = await getWithCookies(server, path, cookie);
    return { status: response.status, html: await response.text() };
  };
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  /** What the desktop API answers the signed-in device: 200 while it is signed in. */
  const deviceStatus = async () =>
    (
      await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${deviceAccess}` },
      })
    ).status;
  const signIn = async (email: string) => {
    const response = await authPost(server, "/sign-in/email", { email, password: PASSWORD });
    expect(response.status).toBe(200);
    return cookiesFrom(response);
  };
  const userIdOf = async (email: string) =>
    hiddenValue((await page(`/admin/users?q=${encodeURIComponent(email)}`, boss)).html, "userId");

  /** Signs a desktop app in the way the app does it: handoff token, then PKCE exchange. */
  async function signInDevice(cookie: string, name: string): Promise<string> {
    const { verifier, challenge } = pkce();
    const handoff = await postJson(
      "/api/functions/generateAuthRedirectToken",
      {
        data: {
          redirect_uri: "http://127.0.0.1:53682/callback",
          state: "state-1234567",
          code_challenge: challenge,
          code_challenge_method: "S256",
        },
      },
      { ...BROWSER_HEADERS, origin: server.url, cookie },
    );
    expect(handoff.status).toBe(200);
    const { token } = ((await handoff.json()) as { result: { token: string } }).result;
    const exchanged = await postJson("/api/desktop/token", {
      token,
      code_verifier: verifier,
      device_name: name,
      platform: "mac",
      app_version: "2.1.0",
    });
    expect(exchanged.status).toBe(200);
    return ((await exchanged.json()) as { access_token: string }).access_token;
  }

  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    await start();
    boss = await signUpAdmin(server, PASSWORD);
    asha = await signUpVerified(server, {
      name: "Asha Rao",
      email: "asha@example.com",
      password: PASSWORD,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows the usage page's empty state, then what the desktop app reported", async () => {
    const empty = await page("/account/usage", asha);
    expect(empty.status).toBe(200);
    expect(titleOf(empty.html)).toMatch(/^Usage/);
    expect(textOf(empty.html)).toContain(EMPTY_USAGE);
    expect(empty.html).not.toContain('role="img"');

    deviceAccess = await signInDevice(asha, "Asha MacBook");
    const now = new Date().toISOString();
    const reported = await postJson(
      "/api/desktop/usage",
      {
        events: [
          { id: "evt-1", feature: "serial_monitor", count: 3, at: now },
          { id: "evt-2", feature: "pin_map", count: 4, at: now },
          { id: "evt-3", feature: "serial_monitor", count: 2, at: now },
        ],
      },
      { authorization: `Bearer ${deviceAccess}` },
    );
    expect(await reported.json()).toEqual({ received: 3, stored: 3 });

    const used = await page("/account/usage", asha);
    expect(used.status).toBe(200);
    const text = textOf(used.html);
    expect(text).not.toContain(EMPTY_USAGE);
    expect(used.html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Usage per day, [^"]*9 in total/);
    expect(used.html).not.toMatch(/\sstyle="/);
    expect(text).toMatch(/Asha MacBook macOS serial_monitor 5 /);
    expect(text).toMatch(/Asha MacBook macOS pin_map 4 /);
    expect(text).toContain("Version 2.1.0");
    expect(text).toContain("Signed in on Asha MacBook");

    // Nobody else sees it.
    expect(textOf((await page("/account/usage", boss)).html)).toContain(EMPTY_USAGE);
  });

  it("shows the Free plan with its devices and the way to upgrade", async () => {
    const plain = await page("/account/subscription", asha);
    expect(plain.status).toBe(200);
    const text = textOf(plain.html);
    expect(text).toMatch(/Plan Free/);
    expect(text).toMatch(/Device limit 1 device/);
    expect(text).toMatch(/Devices in use 1 of 1/);
    expect(text).toContain("Upgrade to Pro");
    expect(plain.html).toContain('href="/checkout?plan=pro-monthly"');
    expect(plain.html).toContain('href="/checkout?plan=pro-yearly"');
    expect(plain.html).toContain('href="/pricing"');
    // Nothing to cancel or switch without a subscription.
    expect(text).not.toContain("Cancel at end of period");
  });

  it("serves the admin pages to admins only", async () => {
    for (const path of ADMIN_PAGES) {
      expect((await page(path, boss)).status, path).toBe(200);
      expect((await page(path, asha)).status, path).toBe(403);
    }
    const dashboard = textOf((await page("/admin", boss)).html);
    expect(dashboard).toMatch(
      /MRR ₹0 .* Active subscriptions 0 Failed payments this month 0 Disputed, undecided ₹0 \(0\) Users 2 Verified users 2 Admins 1 Active desktop devices 1/,
    );
    const subscriptions = textOf((await page("/admin/subscriptions", boss)).html);
    expect(subscriptions).toContain("No subscription matches.");
    expect(subscriptions).toMatch(/Free 2 Pro \(monthly\) 0 Pro \(yearly\) 0/);

    const users = textOf((await page("/admin/users?q=ASHA", boss)).html);
    expect(users).toContain("asha@example.com");
    expect(users).not.toContain("boss@example.com");
    expect(users).toMatch(
      /asha@example\.com yes user \d{1,2} \S+ \d{4} 1 Role of asha@example\.com/,
    );
    const nobody = textOf((await page("/admin/users?q=%25", boss)).html);
    expect(nobody).toContain("No user matches that search.");
  });

  it("changes a role through the users form, and refuses to demote yourself", async () => {
    const ashaId = await userIdOf("asha@example.com");
    const promoted = await postForm(server, "/admin/users", boss, {
      intent: "set-role",
      userId: ashaId,
      role: "admin",
    });
    expect(promoted.status).toBe(200);
    expect(textOf(await promoted.text())).toContain("asha@example.com is now admin.");
    // A fresh sign-in carries the new role at once (an existing browser within five minutes).
    const ashaAdmin = await signIn("asha@example.com");
    expect((await page("/admin", ashaAdmin)).status).toBe(200);

    const demoted = await postForm(server, "/admin/users", boss, {
      intent: "set-role",
      userId: ashaId,
      role: "user",
    });
    expect(demoted.status).toBe(200);
    expect(textOf(await demoted.text())).toContain("asha@example.com is now user.");
    expect((await page("/admin", await signIn("asha@example.com"))).status).toBe(403);

    const self = await postForm(server, "/admin/users", boss, {
      intent: "set-role",
      userId: await userIdOf("boss@example.com"),
      role: "user",
    });
    expect(self.status).toBe(400);
    expect(textOf(await self.text())).toContain("You cannot remove your own admin role");
    expect((await page("/admin", boss)).status).toBe(200);

    const bad = await postForm(server, "/admin/users", boss, {
      intent: "set-role",
      userId: ashaId,
      role: "owner",
    });
    expect(bad.status).toBe(400);
    const unknown = await postForm(server, "/admin/users", boss, {
      intent: "set-role",
      userId: "no-such-user",
      role: "admin",
    });
    expect(unknown.status).toBe(404);

    // A normal user cannot post to the form at all.
    const refused = await postForm(server, "/admin/users", asha, {
      intent: "set-role",
      userId: ashaId,
      role: "admin",
    });
    expect(refused.status).toBe(403);
  });

  it("lists new feedback on the dashboard and marks it read", async () => {
    const sent = await postForm(server, "/feedback", "", {
      email: "maker@example.com",
      category: "feature",
      message: "Please add an I2C bus decoder to the logic view.",
      rating: "5",
    });
    expect(sent.status).toBe(302);

    const before = await page("/admin", boss);
    expect(textOf(before.html)).toMatch(/New feedback 1/);
    expect(textOf(before.html)).toMatch(/maker@ ?example\. ?com Feature request 5 of 5/);
    const id = hiddenValue(before.html, "id");

    const marked = await postForm(server, "/admin", boss, {
      intent: "feedback-status",
      id,
      status: "read",
    });
    expect(marked.status).toBe(200);
    const after = textOf(await marked.text());
    expect(after).toContain("The message is marked read.");
    expect(after).toMatch(/New feedback 0/);

    const invalid = await postForm(server, "/admin", boss, {
      intent: "feedback-status",
      id,
      status: "deleted",
    });
    expect(invalid.status).toBe(400);
  });

  it("looks a customer up and signs out their device", async () => {
    const missing = await page("/admin-fix-subscription?email=ghost%40example.com", boss);
    expect(textOf(missing.html)).toContain("No account uses ghost@example.com.");

    const path = "/admin-fix-subscription?email=asha%40example.com";
    const found = await page(path, boss);
    const text = textOf(found.html);
    expect(text).toContain("No subscriptions.");
    expect(text).toMatch(/Plan now Free/);
    expect(text).toContain("Asha MacBook");
    expect(await deviceStatus()).toBe(200);

    const signedOut = await postForm(server, path, boss, {
      intent: "revoke-device",
      userId: hiddenValue(found.html, "userId"),
      deviceId: hiddenValue(found.html, "deviceId"),
    });
    expect(signedOut.status).toBe(200);
    const after = textOf(await signedOut.text());
    expect(after).toContain("The device was signed out.");
    expect(after).toContain("No desktop app is signed in to this account.");
    expect(await deviceStatus()).toBe(401);
  });

  it("sets a role with the user:role CLI while the server is stopped", async () => {
    // The embedded database has one owner at a time: the CLI runs while the server is down.
    await server.stop();
    const script = "scripts/user-role.ts";

    const promoted = await runScript(
      script,
      ["--email", "ASHA@example.com", "--role", "admin"],
      cliEnv(),
    );
    expect(promoted.output).toContain("asha@example.com is now admin.");
    expect(promoted.code).toBe(0);

    const unknown = await runScript(
      script,
      ["--email", "ghost@example.com", "--role", "admin"],
      cliEnv(),
    );
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain("no account uses ghost@example.com");

    // Every wrong call is refused before the database opens (scripts/lib/user-role-args.test.ts
    // has each case); one shows the script exits with 2 and the usage line.
    const wrong = await runScript(script, ["--email", "asha@example.com"], cliEnv());
    expect(wrong.code).toBe(2);
    expect(wrong.output).toContain("usage: npm run user:role");

    await start();
    const session = await getWithCookies(server, "/api/session", await signIn("asha@example.com"));
    expect(await session.json()).toMatchObject({
      user: { email: "asha@example.com", role: "admin" },
    });
  });
});
