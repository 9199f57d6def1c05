import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_HEADERS, getWithCookies, signUpVerified } from "../support/auth";
import { titleOf } from "../support/html";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "path-case-password-1";

/** The text of the page's first <h1>, tags left out. */
function headingOf(html: string): string | undefined {
  return /<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, "");
}

/**
 * Issue 21, point 6: routing ignores case, so every page has one spelling that the rest of the
 * site can compare against; and the desktop handoff page is titled for what it says.
 */
describe("paths spelt in another case, and the spent handoff link", () => {
  let server: RunningTestServer;
  let admin: string;
  let customer: string;

  beforeAll(async () => {
    server = await startServerOn(httpEngine(), { env: { ADMIN_EMAILS: "chief@example.com" } });
    admin = await signUpVerified(server, {
      name: "Chief",
      email: "chief@example.com",
      password: PASSWORD,
    });
    customer = await signUpVerified(server, {
      name: "Asha",
      email: "asha@example.com",
      password: PASSWORD,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("gives an admin who types /Admin/Users the admin layout, without the site's navbar or footer", async () => {
    const response = await fetch(`${server.url}/Admin/Users`, {
      headers: { ...BROWSER_HEADERS, cookie: admin },
    });
    expect(response.status).toBe(200);
    expect(new URL(response.url).pathname).toBe("/admin/users");
    const html = await response.text();
    expect(html).toContain('aria-label="Admin"');
    expect(html).not.toContain('aria-label="Main"');
    expect(html).not.toContain("<footer");
  });

  it("sends every other spelling of a page's fixed segments to the one in app/routes.ts", async () => {
    const cases: [string, string][] = [
      ["/ADMIN", "/admin"],
      ["/Admin/Users?page=1", "/admin/users?page=1"],
      ["/%41dmin/users", "/admin/users"],
      ["/Pricing", "/pricing"],
      // A parameter is the visitor's: only the fixed segment changes.
      ["/Blog/Welcome-To-Pinout-Blog", "/blog/Welcome-To-Pinout-Blog"],
    ];
    for (const [spelt, canonical] of cases) {
      const response = await getWithCookies(server, spelt, admin);
      expect(response.status, spelt).toBe(301);
      expect(response.headers.get("location"), spelt).toBe(canonical);
    }
    // Signed out, the canonical page's own guard then asks for sign-in with that spelling.
    const anonymous = await fetch(`${server.url}/Admin/Users`, {
      redirect: "manual",
      headers: BROWSER_HEADERS,
    });
    expect(anonymous.headers.get("location")).toBe("/admin/users");
  });

  it("leaves the API, form posts, unknown paths and canonical pages where they are", async () => {
    const api = await fetch(`${server.url}/API/desktop/me`, { redirect: "manual" });
    expect(api.status).toBe(401);
    const unknown = await getWithCookies(server, "/No-Such-Page", customer);
    expect(unknown.status).toBe(404);
    const canonical = await getWithCookies(server, "/admin/users", admin);
    expect(canonical.status).toBe(200);
    const post = await fetch(`${server.url}/Admin/Users`, {
      method: "POST",
      redirect: "manual",
      headers: {
        ...BROWSER_HEADERS,
        cookie: customer,
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "intent=set-role",
    });
    // Answered by the route itself: a customer may not act there.
    expect(post.status).toBe(403);
  });

  it("titles a spent handoff link for what the page says, and a live one as signed in", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const handoff = await fetch(`${server.url}/api/functions/generateAuthRedirectToken`, {
      method: "POST",
      headers: {
        ...BROWSER_HEADERS,
        "content-type": "application/json",
        origin: server.url,
        cookie: customer,
      },
      body: JSON.stringify({
        data: {
          redirect_uri: "http://127.0.0.1:53682/callback",
          state: "state-1234567",
          code_challenge: createHash("sha256").update(verifier).digest("base64url"),
          code_challenge_method: "S256",
        },
      }),
    });
    expect(handoff.status).toBe(200);
    const { token } = ((await handoff.json()) as { result: { token: string } }).result;
    const path = `/login-success?token=${encodeURIComponent(token)}`;

    const live = await (await getWithCookies(server, path, customer)).text();
    expect(headingOf(live)).toBe("You are signed in");
    expect(titleOf(live)).toBe("Signed in | Pinout");

    const exchanged = await fetch(`${server.url}/api/desktop/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        token,
        code_verifier: verifier,
        device_name: "Asha's Mac",
        platform: "mac",
        app_version: "2.1.0",
      }),
    });
    expect(exchanged.status).toBe(200);

    const spent = await getWithCookies(server, path, customer);
    expect(spent.status).toBe(200);
    const html = await spent.text();
    expect(headingOf(html)).toBe("This sign-in link has expired");
    expect(titleOf(html)).toBe("Sign-in link expired | Pinout");
  });
});
