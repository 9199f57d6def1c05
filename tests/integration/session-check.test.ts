import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authPost, BROWSER_HEADERS, cookiesFrom, signUpVerified } from "../support/auth";
import { engines } from "../support/engines";
import { type RunningTestServer, startServer } from "../support/server";

const PASSWORD = "session-check-password-1";
const COOKIE = "better-auth.session_token";

/** The session cookie with its value replaced. */
function withToken(cookies: string, value: string): string {
  return cookies.replace(new RegExp(`${COOKIE}=[^;]*`), `${COOKIE}=${value}`);
}

function tokenOf(cookies: string): string {
  return decodeURIComponent(new RegExp(`${COOKIE}=([^;]*)`).exec(cookies)?.[1] ?? "");
}

describe.each(engines())("the session check on $name", (engine) => {
  let server: RunningTestServer;
  const who = async (cookie: string) => {
    const response = await fetch(`${server.url}/api/session`, {
      headers: { ...BROWSER_HEADERS, cookie },
    });
    return ((await response.json()) as { user: { email: string } | null }).user?.email ?? null;
  };

  beforeAll(async () => {
    server = await startServer({ env: { DATABASE_URL: await engine.freshDatabaseUrl() } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("accepts the cookie Better Auth signed, and nothing forged from it", async () => {
    const cookies = await signUpVerified(server, {
      name: "Sid",
      email: "sid@example.com",
      password: PASSWORD,
    });
    // Only the session token: the short-lived cookie cache must not be what answers.
    const session = `${COOKIE}=${encodeURIComponent(tokenOf(cookies))}`;
    expect(await who(session)).toBe("sid@example.com");
    expect(await (await getPage("/account", session)).status).toBe(200);

    const [token = "", signature = ""] = tokenOf(cookies).split(".");
    const flipped = signature.startsWith("A") ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    for (const forged of [
      token, // unsigned
      `${token}.${flipped}`, // wrong signature
      `${token}.${signature.slice(0, 20)}`, // truncated signature
      `x${token}.${signature}`, // another token with this signature
      "%E0%A4%A", // not even percent-encoding
    ]) {
      expect(await who(withToken(session, encodeURIComponent(forged)))).toBeNull();
      expect(
        (await getPage("/account", withToken(session, encodeURIComponent(forged)))).status,
      ).toBe(302);
    }
  });

  it("refuses a session at once after it is signed out elsewhere", async () => {
    const cookies = await signUpVerified(server, {
      name: "Out",
      email: "out@example.com",
      password: PASSWORD,
    });
    const session = `${COOKIE}=${encodeURIComponent(tokenOf(cookies))}`;
    expect(await who(session)).toBe("out@example.com");
    // The account area's guard reads the session with the account state (decision 0035).
    expect((await getPage("/account", session)).status).toBe(200);
    const signOut = await authPost(server, "/sign-out", {}, { cookie: cookies });
    expect(signOut.status).toBe(200);
    expect(await who(session)).toBeNull();
    for (const path of ["/account", "/account", "/billing", "/checkout"]) {
      const refused = await getPage(path, session);
      expect(refused.status, path).toBe(302);
      expect(refused.headers.get("location"), path).toMatch(/^\/auth\?next=/);
    }
    expect(cookiesFrom(signOut)).not.toContain(tokenOf(cookies));
  });

  it("still renews a session due for it (Better Auth writes the new expiry)", async () => {
    const cookies = await signUpVerified(server, {
      name: "Renew",
      email: "renew@example.com",
      password: PASSWORD,
    });
    const token = tokenOf(cookies).split(".")[0] ?? "";
    // Tokens are letters and digits (Better Auth's generateId): safe inside the statement.
    expect(token).toMatch(/^[A-Za-z0-9]+$/);
    // 28 of 30 days left: older than the one-day update age, so due for renewal.
    const dueForRenewal = () =>
      server.sql(
        `update session set expires_at = now() at time zone 'utc' + interval '28 days' where token = '${token}'`,
      );
    const daysLeft = async () => {
      const [row] = await server.sql(
        `select extract(epoch from (expires_at - now() at time zone 'utc')) / 86400 as days from session where token = '${token}'`,
      );
      return Number(row?.days);
    };
    const session = `${COOKIE}=${encodeURIComponent(tokenOf(cookies))}`;
    await dueForRenewal();
    expect(await daysLeft()).toBeLessThan(28.1);
    expect(await who(session)).toBe("renew@example.com");
    expect(await daysLeft()).toBeGreaterThan(29.9);
    // The same through the account area's guard, which reads the account state with it.
    await dueForRenewal();
    const page = await getPage("/account", session);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("renew@example.com");
    expect(await daysLeft()).toBeGreaterThan(29.9);
  });

  function getPage(path: string, cookie: string) {
    return fetch(server.url + path, {
      redirect: "manual",
      headers: { ...BROWSER_HEADERS, cookie },
    });
  }
});
