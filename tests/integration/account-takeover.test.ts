/**
 * Issue 9, points 2, 8, 9 (account actions) and 11 (mail): a stolen desktop token must not
 * become the account. Each step of the old chain (device token → browser session without 2FA →
 * email change without the password → password reset) is closed, and tested here over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authPost,
  BROWSER_HEADERS,
  cookiesFrom,
  desktopOpenedBrowser,
  getWithCookies,
  postForm,
  signUpVerified,
} from "../support/auth";
import { buyThroughSandbox } from "../support/billing";
import { eventually } from "../support/eventually";
import { signInDevice } from "../support/desktop";
import { textOf } from "../support/pages";
import { engines } from "../support/engines";
import { linkFromMail, readOutbox } from "../support/mail";
import { freePort } from "../support/postgres";
import { type RunningTestServer, startServer, startedDataDir } from "../support/server";
import { totp } from "../support/totp";

const PASSWORD = "takeover-test-password-1";
const STEP_UP = "Confirm your password first: this browser was signed in from the desktop app.";
const CONFIRM_CHANGE_SUBJECT = "Confirm the new email address of your Pinout account";
const PASSWORD_CHANGED_SUBJECT = "Your Pinout password was changed";

describe.each(engines())("account takeover chain on $name", (engine) => {
  let server: RunningTestServer;
  let databaseUrl: string | undefined;

  /** Pro (three devices) through the sandbox checkout: the free plan allows one device. */
  const buyPro = (cookie: string) => buyThroughSandbox(server, cookie);

  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    server = await startServer({
      // TRUST_PROXY: the two-factor test sends each code from its own address, as a botnet would.
      env: {
        DATABASE_URL: databaseUrl,
        AUTH_RATE_LIMIT: "100",
        LOG_LEVEL: "debug",
        TRUST_PROXY: "loopback",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const me = (accessToken: string) =>
    fetch(`${server.url}/api/desktop/me`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });

  const desktopBrowser = (accessToken: string) =>
    desktopOpenedBrowser(server, accessToken, "/account/security");

  const signIn = (email: string, password = PASSWORD) =>
    authPost(server, "/sign-in/email", { email, password });

  const mailsTo = (address: string) =>
    readOutbox(server.dataDir).filter((mail) => mail.to.includes(address));

  /** Queued mail is sent by the job worker within a second or two. */
  const waitForMail = (address: string, subject: string) =>
    eventually(
      async () => mailsTo(address).find((mail) => mail.subject === subject),
      20_000,
      `"${subject}" to ${address}`,
    );

  /** Until the job worker has sent everything that was queued (nothing due or running). */
  const settle = () => server.jobsSettled();

  async function pageText(response: Response) {
    return textOf(await response.text());
  }

  describe("changing the email address", () => {
    it("is refused without the password or with a wrong one, and mails nothing to the new address", async () => {
      const cookie = await signUpVerified(server, {
        name: "Asha Rao",
        email: "asha@example.com",
        password: PASSWORD,
      });
      const before = mailsTo("asha@example.com").length;

      const without = await postForm(server, "/account/profile", cookie, {
        intent: "change-email",
        email: "thief@example.com",
      });
      expect(without.status).toBe(400);
      expect(await pageText(without)).toContain("Enter your password.");

      const wrong = await postForm(server, "/account/profile", cookie, {
        intent: "change-email",
        email: "thief@example.com",
        password: "not-the-password-9",
      });
      expect(wrong.status).toBe(400);
      expect(await pageText(wrong)).toContain("The password is not right.");

      // Better Auth's own endpoint would skip both checks: it is not reachable over HTTP.
      const direct = await authPost(
        server,
        "/change-email",
        { newEmail: "thief@example.com", callbackURL: "/account" },
        { cookie },
      );
      expect(direct.status).toBe(404);

      await settle();
      expect(mailsTo("thief@example.com")).toEqual([]);
      expect(mailsTo("asha@example.com").length).toBe(before);
      const profile = await pageText(await getWithCookies(server, "/account/profile", cookie));
      expect(profile).toContain("Now: asha@example.com");
    });

    it("with the password, asks the old address first; only its link sends the new address a link", async () => {
      const cookie = await signUpVerified(server, {
        name: "Ravi Iyer",
        email: "ravi@example.com",
        password: PASSWORD,
      });
      const asked = await postForm(server, "/account/profile", cookie, {
        intent: "change-email",
        email: "ravi.new@example.com",
        password: PASSWORD,
      });
      expect(asked.status).toBe(200);
      expect(await pageText(asked)).toContain("We sent a link to ravi@example.com.");

      const confirmation = await waitForMail("ravi@example.com", CONFIRM_CHANGE_SUBJECT);
      expect(confirmation.text).toContain("ravi.new@example.com");
      expect(mailsTo("ravi.new@example.com")).toEqual([]);

      // The old address's link: only now does the new address get its verification link.
      const first = await linkFromMail(server.dataDir, "ravi@example.com", "email%3Dconfirmed");
      const confirmed = await fetch(first, { redirect: "manual", headers: BROWSER_HEADERS });
      expect(confirmed.status).toBe(302);
      expect(confirmed.headers.get("location")).toMatch(/^\/account\/profile\?email=confirmed&to=/);
      const stillOld = await pageText(await getWithCookies(server, "/account/profile", cookie));
      expect(stillOld).toContain("Now: ravi@example.com");

      const second = await eventually(
        async () =>
          await linkFromMail(server.dataDir, "ravi.new@example.com", "/api/auth/verify-email"),
        20_000,
        "the verification link to the new address",
      );
      const verified = await fetch(second, { redirect: "manual", headers: BROWSER_HEADERS });
      expect(verified.status).toBe(302);
      const changed = await pageText(await getWithCookies(server, "/account/profile", cookie));
      expect(changed).toContain("Now: ravi.new@example.com");
    });
  });

  describe("a new password signs the desktop devices out", () => {
    it("after a reset from the emailed link", async () => {
      const cookie = await signUpVerified(server, {
        name: "Bela Shah",
        email: "bela@example.com",
        password: PASSWORD,
      });
      const device = await signInDevice(server, cookie, "Bela's MacBook");
      expect((await me(device)).status).toBe(200);

      const request = await authPost(server, "/request-password-reset", {
        email: "bela@example.com",
        redirectTo: "/auth?view=reset",
      });
      expect(request.status).toBe(200);
      const link = await linkFromMail(
        server.dataDir,
        "bela@example.com",
        "/api/auth/reset-password/",
      );
      const landing = await fetch(link, { redirect: "manual" });
      const token = new URL(landing.headers.get("location") ?? "", server.url).searchParams.get(
        "token",
      );
      expect(token).toBeTruthy();
      const reset = await authPost(server, "/reset-password", {
        token,
        newPassword: "bela-new-password-22",
      });
      expect(reset.status).toBe(200);

      expect((await me(device)).status).toBe(401);
      await waitForMail("bela@example.com", PASSWORD_CHANGED_SUBJECT);
    });

    it("after a change on the security page, which keeps the new session cookie", async () => {
      const cookie = await signUpVerified(server, {
        name: "Chitra Menon",
        email: "chitra@example.com",
        password: PASSWORD,
      });
      await buyPro(cookie);
      const laptop = await signInDevice(server, cookie, "Chitra's laptop");
      const desk = await signInDevice(server, cookie, "Chitra's desk PC");

      const changed = await postForm(server, "/account/security", cookie, {
        intent: "change-password",
        currentPassword: PASSWORD,
        newPassword: "chitra-new-password-33",
      });
      expect(changed.status).toBe(200);
      const fresh = cookiesFrom(changed, cookie);
      expect(await pageText(changed)).toContain("Your password was changed.");

      expect((await me(laptop)).status).toBe(401);
      expect((await me(desk)).status).toBe(401);
      expect((await getWithCookies(server, "/account/security", fresh)).status).toBe(200);
      // The mail is queued (a mail failure cannot undo the change), and sent by the worker.
      await waitForMail("chitra@example.com", PASSWORD_CHANGED_SUBJECT);
    });
  });

  describe("a browser opened from the desktop app", () => {
    it("must confirm the password before sensitive actions, then may act", async () => {
      const cookie = await signUpVerified(server, {
        name: "Dev Asha",
        email: "dev@example.com",
        password: PASSWORD,
      });
      await buyPro(cookie);
      const opener = await signInDevice(server, cookie, "Dev's MacBook");
      const other = await signInDevice(server, cookie, "Dev's desk PC");
      const browser = await desktopBrowser(opener);

      const security = await getWithCookies(server, "/account/security", browser);
      expect(security.status).toBe(200);
      const html = await security.text();
      expect(textOf(html)).toContain("Confirm it's you");
      const deviceId = /name="deviceId" value="([0-9a-f-]{36})"/.exec(html)?.[1];
      expect(deviceId).toBeTruthy();

      const refused = [
        [
          "/account/security",
          {
            intent: "change-password",
            currentPassword: PASSWORD,
            newPassword: "dev-new-password-44",
          },
        ],
        ["/account/security", { intent: "delete-account", password: PASSWORD }],
        ["/account/security", { intent: "revoke-other-sessions" }],
        ["/account/security", { intent: "revoke-device", deviceId: deviceId! }],
        [
          "/account/profile",
          { intent: "change-email", email: "dev.new@example.com", password: PASSWORD },
        ],
      ] as const;
      for (const [path, fields] of refused) {
        const response = await postForm(server, path, browser, { ...fields });
        expect(response.status, fields.intent).toBe(403);
        expect(await pageText(response), fields.intent).toContain(STEP_UP);
      }
      // The browser's own calls to Better Auth are held to the same rule.
      for (const [endpoint, body] of [
        ["/two-factor/enable", { password: PASSWORD }],
        ["/revoke-other-sessions", {}],
      ] as const) {
        const response = await authPost(server, endpoint, body, { cookie: browser });
        expect(response.status, endpoint).toBe(403);
        expect(((await response.json()) as { message: string }).message).toBe(STEP_UP);
      }
      // The marks are the server's: a browser cannot set or clear them.
      const forged = await authPost(
        server,
        "/update-session",
        { stepUpAt: new Date().toISOString(), desktopDeviceId: null },
        { cookie: browser },
      );
      // Not on the HTTP allow-list at all (decision 0028).
      expect(forged.status).toBe(404);
      expect(
        (await postForm(server, "/account/security", browser, { intent: "revoke-other-sessions" }))
          .status,
      ).toBe(403);

      // Nothing happened: the account, its other browser and both devices are as they were.
      expect((await signIn("dev@example.com")).status).toBe(200);
      expect((await getWithCookies(server, "/account", cookie)).status).toBe(200);
      expect((await me(other)).status).toBe(200);
      await settle();
      expect(mailsTo("dev.new@example.com")).toEqual([]);

      // "Confirm it's you": a wrong password is refused, the right one opens the actions.
      const wrong = await postForm(server, "/account/security", browser, {
        intent: "step-up",
        password: "not-the-password-9",
      });
      expect(wrong.status).toBe(400);
      const stepUp = await postForm(server, "/account/security", browser, {
        intent: "step-up",
        password: PASSWORD,
      });
      expect(stepUp.status).toBe(200);
      const after = textOf(
        await (await getWithCookies(server, "/account/security", browser)).text(),
      );
      expect(after).not.toContain("Confirm it's you");

      const others = await postForm(server, "/account/security", browser, {
        intent: "revoke-other-sessions",
      });
      expect(others.status).toBe(200);
      expect((await getWithCookies(server, "/account", cookie)).status).toBe(302);

      // A change made from this browser keeps the device that opened it, and only that one.
      const changed = await postForm(server, "/account/security", browser, {
        intent: "change-password",
        currentPassword: PASSWORD,
        newPassword: "dev-new-password-44",
      });
      expect(changed.status).toBe(200);
      expect((await me(opener)).status).toBe(200);
      expect((await me(other)).status).toBe(401);
    });

    it("asks for the two-factor code too when two-factor authentication is on", async () => {
      let cookie = await signUpVerified(server, {
        name: "Tara Das",
        email: "tara@example.com",
        password: PASSWORD,
      });
      const enable = await authPost(
        server,
        "/two-factor/enable",
        { password: PASSWORD },
        { cookie },
      );
      expect(enable.status).toBe(200);
      const { totpURI } = (await enable.json()) as { totpURI: string };
      const secret = new URL(totpURI).searchParams.get("secret")!;
      const verify = await authPost(
        server,
        "/two-factor/verify-totp",
        { code: totp(secret) },
        { cookie },
      );
      expect(verify.status).toBe(200);
      cookie = cookiesFrom(verify, cookie);

      const device = await signInDevice(server, cookie, "Tara's MacBook");
      const browser = await desktopBrowser(device);
      const page = textOf(
        await (await getWithCookies(server, "/account/security", browser)).text(),
      );
      expect(page).toContain("Code from your authenticator app");

      const passwordOnly = await postForm(server, "/account/security", browser, {
        intent: "step-up",
        password: PASSWORD,
      });
      expect(passwordOnly.status).toBe(400);
      expect(await pageText(passwordOnly)).toContain("Enter the code from your authenticator app.");
      const badCode = await postForm(server, "/account/security", browser, {
        intent: "step-up",
        password: PASSWORD,
        code: "000000",
      });
      expect(badCode.status).toBe(400);
      const confirmed = await postForm(server, "/account/security", browser, {
        intent: "step-up",
        password: PASSWORD,
        code: totp(secret),
      });
      expect(confirmed.status).toBe(200);
      const others = await postForm(server, "/account/security", browser, {
        intent: "revoke-other-sessions",
      });
      expect(others.status).toBe(200);
    });

    it("is signed out with the device that opened it", async () => {
      const cookie = await signUpVerified(server, {
        name: "Esha Pillai",
        email: "esha@example.com",
        password: PASSWORD,
      });
      const device = await signInDevice(server, cookie, "Esha's MacBook");
      const browser = await desktopBrowser(device);
      expect((await getWithCookies(server, "/account", browser)).status).toBe(200);
      const html = await (await getWithCookies(server, "/account/security", cookie)).text();
      const deviceId = /name="deviceId" value="([0-9a-f-]{36})"/.exec(html)?.[1];
      const revoked = await postForm(server, "/account/security", cookie, {
        intent: "revoke-device",
        deviceId: deviceId!,
      });
      expect(revoked.status).toBe(200);
      expect((await getWithCookies(server, "/account", browser)).status).toBe(302);
    });
  });

  describe("deleting the account", () => {
    it("never deletes without the right password, and Better Auth's endpoint is not reachable", async () => {
      const cookie = await signUpVerified(server, {
        name: "Farah Khan",
        email: "farah@example.com",
        password: PASSWORD,
      });
      // A fresh session: Better Auth's endpoint would delete with no password at all.
      for (const body of [{}, { password: "not-the-password-9" }, { password: PASSWORD }]) {
        const direct = await authPost(server, "/delete-user", body, { cookie });
        expect(direct.status).toBe(404);
      }
      for (const password of ["", "not-the-password-9"]) {
        const refused = await postForm(server, "/account/security", cookie, {
          intent: "delete-account",
          password,
        });
        expect(refused.status).toBe(400);
      }
      expect((await signIn("farah@example.com")).status).toBe(200);
      expect((await getWithCookies(server, "/account", cookie)).status).toBe(200);

      const deleted = await postForm(server, "/account/security", cookie, {
        intent: "delete-account",
        password: PASSWORD,
      });
      expect(deleted.status).toBe(302);
      expect(deleted.headers.get("location")).toBe("/?account=deleted");
      expect((await signIn("farah@example.com")).status).toBe(401);
    });

    it("asks an account without a password (Google only) to confirm by an emailed link", async () => {
      const cookie = await signUpVerified(server, {
        name: "Gita Rao",
        email: "gita@example.com",
        password: PASSWORD,
      });
      // What a Google-only account looks like: no password on its credential row.
      await server.sql(
        `update account set password = null where user_id = (select id from "user" where email = 'gita@example.com')`,
      );

      const asked = await postForm(server, "/account/security", cookie, {
        intent: "delete-account",
      });
      expect(asked.status).toBe(200);
      expect(await pageText(asked)).toContain("We sent a link to gita@example.com to confirm.");
      await waitForMail("gita@example.com", "Confirm deleting your Pinout account");
      const link = await linkFromMail(
        server.dataDir,
        "gita@example.com",
        "/account/security?delete=",
      );
      const token = new URL(link).searchParams.get("delete")!;

      // Opening the link only asks; the click deletes, once.
      const landing = await getWithCookies(
        server,
        new URL(link).pathname + new URL(link).search,
        cookie,
      );
      expect(landing.status).toBe(200);
      expect(await pageText(landing)).toContain("Delete my account now");
      const wrongToken = await postForm(server, "/account/security", cookie, {
        intent: "confirm-delete",
        token: "not-the-token",
      });
      expect(wrongToken.status).toBe(400);
      const deleted = await postForm(server, "/account/security", cookie, {
        intent: "confirm-delete",
        token,
      });
      expect(deleted.status).toBe(302);
      expect(deleted.headers.get("location")).toBe("/?account=deleted");
      expect((await getWithCookies(server, "/account", cookie)).status).toBe(302);
    });
  });

  describe("attempt limits", () => {
    it("answers the sixth password change in 15 minutes with 429, even with the right password", async () => {
      const cookie = await signUpVerified(server, {
        name: "Hari Nair",
        email: "hari@example.com",
        password: PASSWORD,
      });
      const attempt = (currentPassword: string) =>
        postForm(server, "/account/security", cookie, {
          intent: "change-password",
          currentPassword,
          newPassword: "hari-new-password-55",
        });
      for (let i = 0; i < 5; i++) expect((await attempt(`wrong-password-${i}`)).status).toBe(400);
      const limited = await attempt(PASSWORD);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await pageText(limited)).toContain("Too many attempts. Try again in 15 minutes.");
      expect((await signIn("hari@example.com")).status).toBe(200);
    });

    it("answers the sixth account deletion in 15 minutes with 429", async () => {
      const cookie = await signUpVerified(server, {
        name: "Isha Sen",
        email: "isha@example.com",
        password: PASSWORD,
      });
      const attempt = (password: string) =>
        postForm(server, "/account/security", cookie, { intent: "delete-account", password });
      for (let i = 0; i < 5; i++) expect((await attempt(`wrong-password-${i}`)).status).toBe(400);
      const limited = await attempt(PASSWORD);
      expect(limited.status).toBe(429);
      expect(await pageText(limited)).toContain("Too many attempts.");
      expect((await signIn("isha@example.com")).status).toBe(200);
    });

    // Issue 32, point 9: 60 wrong codes, then the right one on the same pending sign-in, signed in.
    it("voids a pending sign-in after five wrong codes, locks the account after ten, and tells the owner", async () => {
      const email = "jai@example.com";
      const cookie = await signUpVerified(server, { name: "Jai Rao", email, password: PASSWORD });
      const enable = await authPost(
        server,
        "/two-factor/enable",
        { password: PASSWORD },
        { cookie },
      );
      const { totpURI } = (await enable.json()) as { totpURI: string };
      const secret = new URL(totpURI).searchParams.get("secret")!;
      const enabled = await authPost(
        server,
        "/two-factor/verify-totp",
        { code: totp(secret) },
        { cookie },
      );
      expect(enabled.status).toBe(200);

      /** The password step: a pending sign-in, waiting for its code. */
      const pending = async () => {
        const first = await signIn(email);
        expect(first.status).toBe(200);
        expect(await first.json()).toMatchObject({ twoFactorRedirect: true });
        return cookiesFrom(first);
      };
      /** A wrong code: never the one the app shows now (nor a neighbouring window's). */
      const wrong = () => {
        const valid = new Set(
          [-30_000, 0, 30_000].map((shift) => totp(secret, Date.now() + shift)),
        );
        let code = "000000";
        for (let n = 0; valid.has(code); n++) code = String(n).padStart(6, "0");
        return code;
      };
      // Through the sign-in page's form, each from another address: the per-address limit of
      // Better Auth (3 in 10 s) does not stop an attacker with many.
      let address = 0;
      const verify = (attempt: string, code: string) =>
        postForm(
          server,
          "/auth?view=login",
          attempt,
          { intent: "verify-code", kind: "totp", code },
          { "x-forwarded-for": `198.51.100.${(address += 1)}` },
        );

      const first = await pending();
      for (let i = 0; i < 5; i++) expect((await verify(first, wrong())).status).toBe(401);
      const voided = await verify(first, totp(secret));
      expect(voided.status).toBeGreaterThanOrEqual(400);
      expect(voided.headers.getSetCookie().some((line) => line.includes("session_token="))).toBe(
        false,
      );
      // Back to the password, saying why.
      const voidedPage = await pageText(voided);
      expect(voidedPage).toContain("Too many wrong codes. Start again with your password.");
      expect(voidedPage).toContain("Forgot password?");
      expect(voidedPage).not.toContain("Authentication code");
      // Its owner hears of it once, with what to do.
      const warning = await waitForMail(email, "Wrong two-factor codes for your Pinout account");
      expect(warning.text).toContain("your password is known to someone else");

      // Five more wrong codes on a second pending sign-in: the account is locked for a while,
      // the right code included.
      const second = await pending();
      for (let i = 0; i < 5; i++) expect((await verify(second, wrong())).status).toBe(401);
      const third = await pending();
      const locked = await verify(third, totp(secret));
      expect(locked.status).toBe(429);
      expect(await pageText(locked)).toContain(
        "Too many wrong codes: signing in to this account is paused for 15 minutes.",
      );
      await settle();
      expect(
        mailsTo(email).filter(
          (mail) => mail.subject === "Wrong two-factor codes for your Pinout account",
        ).length,
      ).toBeGreaterThanOrEqual(1);
    });
  });

  it("keeps passwords and mailed links out of the log", () => {
    const output = server.output();
    expect(output).not.toContain(PASSWORD);
    for (const mail of readOutbox(server.dataDir)) {
      for (const token of mail.text.match(/(?:token|delete)=[\w.-]{20,}/g) ?? [])
        expect(output).not.toContain(token);
    }
  });
});

describe.each(engines())("security mail while the mail server is down on $name", (engine) => {
  it("changes the password, keeps the new session cookie, and leaves the mail queued", async () => {
    const dataDir = startedDataDir(engine);
    const databaseUrl = await engine.freshDatabaseUrl();
    const up = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
    try {
      await signUpVerified(up, {
        name: "Jaya Bose",
        email: "jaya@example.com",
        password: PASSWORD,
      });
    } finally {
      await up.stop();
    }
    // Nothing listens on a port that was just free: every mail fails at once.
    const smtpPort = await freePort();
    const down = await startServer({
      dataDir,
      env: { DATABASE_URL: databaseUrl, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
    });
    try {
      const signedIn = await authPost(down, "/sign-in/email", {
        email: "jaya@example.com",
        password: PASSWORD,
      });
      expect(signedIn.status).toBe(200);
      const cookie = cookiesFrom(signedIn);
      const changed = await postForm(down, "/account/security", cookie, {
        intent: "change-password",
        currentPassword: PASSWORD,
        newPassword: "jaya-new-password-66",
      });
      expect(changed.status).toBe(200);
      expect(textOf(await changed.text())).toContain("Your password was changed.");
      expect(changed.headers.getSetCookie().some((line) => line.includes("session_token="))).toBe(
        true,
      );
      const fresh = cookiesFrom(changed, cookie);
      expect((await getWithCookies(down, "/account/security", fresh)).status).toBe(200);
      // The worker tried, failed, and keeps the job for a retry.
      await eventually(
        async () => down.output().includes('"msg":"job failed"'),
        20_000,
        "a failed mail job",
      );
    } finally {
      await down.stop();
    }
  });
});
