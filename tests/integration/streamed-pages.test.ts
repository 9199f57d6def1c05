import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, signUpVerified } from "../support/auth";
import { signInDevice } from "../support/desktop";
import { textOf } from "../support/pages";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

/**
 * Issue 22: a signed-in page streams from its first byte. Its inline scripts are allowed by a
 * nonce made for that response alone (a public page keeps its hashes: site.test.ts). The same URL
 * asked again with the same route data is answered from that render, with the hashes of its
 * scripts (decision 0035); any change in what the page shows renders it again.
 */
describe("signed-in pages", () => {
  let server: RunningTestServer;
  let cookie = "";

  beforeAll(async () => {
    server = await startServerOn(httpEngine());
    cookie = await signUpVerified(server, {
      name: "Meera",
      email: "meera@example.com",
      password: "correct horse battery",
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  /** The attributes and text of each script the CSP governs (not external, not a data block). */
  const inlineScripts = (html: string) =>
    [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes = ""]) => !/\bsrc=|type="application\/(ld\+)?json"/.test(attributes))
      .map(([, attributes = "", text = ""]) => ({ attributes, text }));
  const scriptSources = (response: Response) =>
    /script-src ([^;]+)/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "";
  const nonceOf = (response: Response) =>
    /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSources(response))?.[1];

  async function expectStreamed(response: Response, path: string): Promise<string> {
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const nonce = nonceOf(response);
    expect(nonce, path).toBeTruthy();
    expect(scriptSources(response)).not.toContain("sha256-");
    const html = await response.text();
    const scripts = inlineScripts(html);
    expect(scripts.length, path).toBeGreaterThanOrEqual(3);
    for (const { attributes } of scripts) expect(attributes, path).toContain(`nonce="${nonce}"`);
    return nonce ?? "";
  }

  it("stream a first view with a fresh nonce on every inline script instead of hashes", async () => {
    const nonces: string[] = [];
    // /admin refuses a customer: the refusal is a guarded page too, streamed every time (an
    // error page is never reused).
    for (const path of ["/account/security", "/billing", "/admin", "/admin"]) {
      const response = await getWithCookies(server, path, cookie);
      expect(response.status, path).toBe(path === "/admin" ? 403 : 200);
      nonces.push(await expectStreamed(response, path));
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it("answer a repeat with unchanged data with the same bytes, allowed by their hashes", async () => {
    const first = await getWithCookies(server, "/account/profile", cookie);
    await expectStreamed(first.clone(), "/account/profile");
    const firstHtml = await first.text();

    const again = await getWithCookies(server, "/account/profile", cookie);
    expect(again.status).toBe(200);
    expect(again.headers.get("cache-control")).toBe("private, no-store");
    expect(again.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(scriptSources(again)).not.toContain("'nonce-");
    const html = await again.text();
    expect(html).toBe(firstHtml);
    // Every script the browser would run is listed by the hash of its exact text.
    const sources = scriptSources(again);
    const scripts = inlineScripts(html);
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const { text } of scripts) {
      const hash = createHash("sha256").update(text, "utf8").digest("base64");
      expect(sources).toContain(`'sha256-${hash}'`);
    }
  });

  it("render again the moment anything the page shows has changed", async () => {
    const shown = async () =>
      textOf(await (await getWithCookies(server, "/account", cookie)).text());
    expect(await shown()).toContain("Desktop devices in use: 0 of");
    expect(await shown()).toContain("Desktop devices in use: 0 of");
    // The app signs in: the device count and the first-run checklist change.
    await signInDevice(server, cookie, "Meera's Mac");
    const response = await getWithCookies(server, "/account", cookie);
    await expectStreamed(response.clone(), "/account");
    expect(textOf(await response.text())).toContain("Desktop devices in use: 1 of");
  });

  it("never answer one visitor with a page rendered for another", async () => {
    const other = await signUpVerified(server, {
      name: "Arjun",
      email: "arjun@example.com",
      password: "correct horse battery",
    });
    for (const [who, email, notEmail] of [
      [cookie, "meera@example.com", "arjun@example.com"],
      [other, "arjun@example.com", "meera@example.com"],
      [cookie, "meera@example.com", "arjun@example.com"],
      [other, "arjun@example.com", "meera@example.com"],
    ] as const) {
      const html = await (await getWithCookies(server, "/account", who)).text();
      expect(html).toContain(`Signed in as ${email}`);
      expect(html).not.toContain(notEmail);
    }
  });

  it("leave public pages whole, hashed and the same for everyone", async () => {
    const signedIn = await getWithCookies(server, "/pricing", cookie);
    const policy = signedIn.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("'sha256-");
    expect(policy).not.toContain("'nonce-");
    expect(await signedIn.text()).not.toContain(" nonce=");
  });
});
