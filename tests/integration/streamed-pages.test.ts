import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, signUpVerified } from "../support/auth";
import { type RunningTestServer, startServer } from "../support/server";

/**
 * Issue 22: a signed-in page streams from its first byte. Its inline scripts are allowed by a
 * nonce made for that response alone (a public page keeps its hashes: site.test.ts).
 */
describe("signed-in pages", () => {
  let server: RunningTestServer;
  let cookie = "";

  beforeAll(async () => {
    server = await startServer();
    cookie = await signUpVerified(server, {
      name: "Meera",
      email: "meera@example.com",
      password: "correct horse battery",
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  const inlineScripts = (html: string) =>
    [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes = ""]) => !/\bsrc=|type="application\/(ld\+)?json"/.test(attributes))
      .map(([, attributes = ""]) => attributes);

  it("stream with a fresh nonce on every inline script instead of hashes", async () => {
    const nonces: string[] = [];
    for (const path of ["/account", "/account", "/billing", "/admin"]) {
      const response = await getWithCookies(server, path, cookie);
      // /admin refuses a customer: the refusal is a guarded page too.
      expect(response.status, path).toBe(path === "/admin" ? 403 : 200);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      const policy = response.headers.get("content-security-policy") ?? "";
      const scriptSources = /script-src ([^;]+)/.exec(policy)?.[1] ?? "";
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSources)?.[1];
      expect(nonce, path).toBeTruthy();
      expect(scriptSources).not.toContain("sha256-");
      const html = await response.text();
      const scripts = inlineScripts(html);
      expect(scripts.length, path).toBeGreaterThanOrEqual(3);
      for (const attributes of scripts) expect(attributes, path).toContain(`nonce="${nonce}"`);
      nonces.push(nonce ?? "");
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it("leave public pages whole, hashed and the same for everyone", async () => {
    const signedIn = await getWithCookies(server, "/pricing", cookie);
    const policy = signedIn.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("'sha256-");
    expect(policy).not.toContain("'nonce-");
    expect(await signedIn.text()).not.toContain(" nonce=");
  });
});
