import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  BROWSER_HEADERS,
  getWithCookies,
  postFormBody,
  signUpAdmin,
  signUpVerified,
} from "../support/auth";
import { requestHandoff } from "../support/desktop";
import { engines } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";
import { chunkedBody } from "../support/streams";

const PASSWORD = "hardening-password-1";

describe.each(engines())("hardening on $name", (engine) => {
  let server: RunningTestServer;
  let asha: string;
  let boss: string;

  beforeAll(async () => {
    server = await startServerOn(engine, {
      env: { ADMIN_EMAILS: ADMIN_EMAIL, AUTH_RATE_LIMIT: "100" },
    });
    asha = await signUpVerified(server, {
      name: "Asha Rao",
      email: "asha@example.com",
      password: PASSWORD,
    });
    boss = await signUpAdmin(server, PASSWORD, "The Boss");
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe("request body caps", () => {
    const postFeedback = (body: BodyInit) => postFormBody(server, "/feedback", "", body);

    it("refuses a 2 MB form post with 413 and a plain message", async () => {
      const response = await postFeedback(
        new URLSearchParams({ email: "maya@example.com", message: "m".repeat(2 * 1024 * 1024) }),
      );
      expect(response.status).toBe(413);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await response.text()).toBe("Request body too large: the limit is 1 MB.");
    });

    it("refuses a 2 MB form post sent without Content-Length as well", async () => {
      const response = await postFeedback(chunkedBody(2 * 1024 * 1024));
      expect(response.status).toBe(413);
    });

    it("refuses a 100 KB JSON body to the desktop API with a JSON message", async () => {
      const response = await fetch(`${server.url}/api/desktop/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: "t", code_verifier: "v".repeat(100 * 1024) }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: "Request body too large: the limit is 64 KB.",
      });
    });

    it("still answers bodies under the caps as before, and logs no server error", async () => {
      const small = await fetch(`${server.url}/api/desktop/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: "not-a-token" }),
      });
      expect(small.status).toBe(400);
      const form = await postFeedback(new URLSearchParams({ email: "nope", message: "short" }));
      expect(form.status).toBe(400);
      expect(await form.text()).toContain("Enter an email address like name@example.com.");
      expect(server.output()).not.toContain("unhandled server error");
    });
  });

  describe("private pages are never cached", () => {
    const expectPrivate = (response: Response, path: string) => {
      const cacheControl = response.headers.get("cache-control") ?? "";
      expect(cacheControl, path).toContain("private");
      expect(cacheControl, path).toContain("no-store");
    };

    it.each(["/account", "/account/usage", "/account/usage.data", "/billing", "/login-success"])(
      "marks %s private, no-store for a signed-in user",
      async (path) => {
        const response = await getWithCookies(server, path, asha);
        expect(response.status, path).toBe(200);
        expectPrivate(response, path);
      },
    );

    it("marks the admin pages private, no-store for an admin", async () => {
      for (const path of ["/admin", "/admin/users", "/admin.data"]) {
        const response = await getWithCookies(server, path, boss);
        expect(response.status, path).toBe(200);
        expectPrivate(response, path);
      }
    });

    it("marks the sign-in redirect and the 403 of a guard no-store too", async () => {
      const anonymousGet = (path: string) =>
        fetch(server.url + path, { redirect: "manual", headers: BROWSER_HEADERS });
      const anonymous = await anonymousGet("/account");
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("location")).toBe("/auth?next=%2Faccount");
      expect(anonymous.headers.get("cache-control")).toContain("no-store");

      const anonymousData = await anonymousGet("/account/usage.data");
      expect(anonymousData.headers.get("cache-control")).toContain("no-store");

      const notAdmin = await getWithCookies(server, "/admin", asha);
      expect(notAdmin.status).toBe(403);
      expectPrivate(notAdmin, "/admin as a user");
    });

    it("leaves public pages cacheable", async () => {
      for (const path of ["/", "/pricing"]) {
        const response = await fetch(server.url + path, { headers: BROWSER_HEADERS });
        expect(response.status, path).toBe(200);
        expect(response.headers.get("cache-control") ?? "", path).not.toContain("private");
      }
    });
  });

  describe("guards follow routes, not path strings", () => {
    it.each(["/%61dmin/users", "/ADMIN/users", "/admin/%75sers", "/%61ccount/security"])(
      "guards %s as the page it routes to",
      async (path) => {
        // Another spelling of a page is sent to the one in app/routes.ts (issue 21, point 6)
        // before any page code runs, and that page is guarded.
        const canonical = decodeURIComponent(path).toLowerCase();
        const anonymous = await fetch(server.url + path, {
          redirect: "manual",
          headers: BROWSER_HEADERS,
        });
        expect(anonymous.status).toBe(301);
        expect(anonymous.headers.get("location")).toBe(canonical);
        const followed = await fetch(server.url + canonical, {
          redirect: "manual",
          headers: BROWSER_HEADERS,
        });
        expect(followed.status).toBe(302);
        expect(followed.headers.get("location")).toMatch(/^\/auth\?next=/);
        expect((await getWithCookies(server, path, asha)).status).toBe(301);
        const signedIn = await getWithCookies(server, canonical, asha);
        expect(signedIn.status).toBe(canonical.includes("account") ? 200 : 403);
      },
    );

    it("checks the role again in the data requests of admin pages", async () => {
      const data = await getWithCookies(server, "/%61dmin/users.data", asha);
      expect([302, 202, 403]).toContain(data.status);
      expect(await data.text()).not.toContain("boss@example.com");
      const allowed = await getWithCookies(server, "/%61dmin/users.data", boss);
      expect(allowed.status).toBe(200);
    });
  });

  describe("bad input never 500s", () => {
    it("refuses a NUL character in a form field with 400, naming the field", async () => {
      const response = await fetch(`${server.url}/feedback`, {
        method: "POST",
        headers: {
          ...BROWSER_HEADERS,
          "content-type": "application/x-www-form-urlencoded",
          origin: server.url,
        },
        body: new URLSearchParams({
          email: "nul@example.com",
          category: "bug",
          message: "It broke\u0000 somewhere in the middle.",
        }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('The field "message" contains a NUL character');
    });

    it("refuses a NUL character in a JSON body to Better Auth with 400, naming the field", async () => {
      const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { ...BROWSER_HEADERS, "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ name: "Nul\u0000", email: "nul2@example.com", password: PASSWORD }),
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain('\\"name\\"');
    });

    it("does not spend a handoff token on a request that fails validation", async () => {
      const verifier = "v".repeat(50);
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      const handoff = await requestHandoff(server, asha, challenge);
      const { token } = ((await handoff.json()) as { result: { token: string } }).result;
      const exchange = (deviceName: string, contentType = "application/json") =>
        fetch(`${server.url}/api/desktop/token`, {
          method: "POST",
          headers: { "content-type": contentType },
          body: JSON.stringify({
            token,
            code_verifier: verifier,
            device_name: deviceName,
            platform: "mac",
            app_version: "1.0.0",
          }),
        });
      const nul = await exchange("Asha's\u0000Mac");
      expect(nul.status).toBe(400);
      expect(JSON.stringify(await nul.json())).toContain("device_name");
      const plain = await exchange("Asha's Mac", "text/plain");
      expect(plain.status).toBe(415);
      const good = await exchange("Asha's Mac");
      expect(good.status).toBe(200);
    });

    it("requires application/json on the callable functions", async () => {
      const response = await fetch(`${server.url}/api/functions/generateAuthRedirectToken`, {
        method: "POST",
        headers: {
          ...BROWSER_HEADERS,
          "content-type": "text/plain",
          origin: server.url,
          cookie: asha,
        },
        body: JSON.stringify({ data: {} }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("application/json");
    });
  });
});
