import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BROWSER_HEADERS,
  getAsBrowser,
  getWithCookies,
  postForm,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import { runScript } from "../support/cli";
import { engines } from "../support/engines";
import { eventually } from "../support/eventually";
import { inlineScriptHashes } from "../support/html";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "public-cache-password-1";
const SECRET = "integration-test-secret-0123456789abcdef";
const MAC_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 Chrome/126.0";
const WINDOWS_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0";

function scriptSources(csp: string): string[] {
  return /script-src ([^;]*)/.exec(csp)?.[1]?.split(" ") ?? [];
}

describe.each(engines())("the shared cache of public pages on $name", (engine) => {
  let server: RunningTestServer;
  let boss = "";
  const get = (pathname: string, headers: Record<string, string> = {}) =>
    getAsBrowser(server, pathname, headers);

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { BETTER_AUTH_SECRET: SECRET },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(["/", "/pricing", "/blog", "/legal/terms", "/about", "/search"])(
    "%s is byte-identical for every visitor, with a CSP that allows exactly its inline scripts",
    async (page) => {
      const bodies: string[] = [];
      const policies: string[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await get(page);
        expect(response.status).toBe(200);
        expect(response.headers.get("cache-control")).toMatch(/^public, .*s-maxage=\d+/);
        policies.push(response.headers.get("content-security-policy") ?? "");
        bodies.push(await response.text());
      }
      expect(new Set(bodies).size).toBe(1);
      expect(new Set(policies).size).toBe(1);
      const html = bodies[0] ?? "";
      const sources = scriptSources(policies[0] ?? "");
      const inline = inlineScriptHashes(html).map((hash) => `'${hash}'`);
      expect(inline.length).toBeGreaterThan(0);
      expect(sources.filter((source) => source.startsWith("'sha256-")).sort()).toEqual(
        [...new Set(inline)].sort(),
      );
      expect(policies[0]).not.toMatch(/unsafe-inline|nonce-/);
      expect(html).not.toMatch(/\snonce="/);
    },
  );

  it("answers a matching ETag with 304, and serves the stored gzip", async () => {
    await get("/pricing");
    const first = await get("/pricing");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^W\/".+"$/);
    const body = Buffer.from(await first.arrayBuffer());

    const revalidated = await get("/pricing", { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(await revalidated.text()).toBe("");
    expect((await get("/pricing", { "if-none-match": 'W/"other"' })).status).toBe(200);

    // Node's fetch decodes gzip itself; ask over a raw request to see the stored copy (compressed
    // after the first answer went out).
    const raw = await eventually(async () => {
      const response = await fetch(`${server.url}/pricing`, {
        headers: { ...BROWSER_HEADERS, "accept-encoding": "gzip" },
      });
      if (response.headers.get("content-encoding") === "gzip") return response;
      await response.body?.cancel();
      return undefined;
    });
    expect(raw.headers.get("content-encoding")).toBe("gzip");
    expect(Buffer.from(await raw.arrayBuffer()).equals(body)).toBe(true);
  });

  it("sends code as the brotli or gzip copy made at build time", async () => {
    const html = await (await get("/")).text();
    const script = /\/assets\/entry\.client-[\w-]+\.js/.exec(html)?.[0] ?? "";
    expect(script).not.toBe("");
    const plain = await get(script, { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const bytes = Buffer.from(await plain.arrayBuffer());
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
    ]) {
      const response = await get(script, { "accept-encoding": accept ?? "" });
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(Number(response.headers.get("content-length"))).toBeLessThan(bytes.length / 2);
      expect(response.headers.get("cache-control")).toContain("immutable");
      // fetch decodes the body: the same code either way.
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it("keeps one variant per platform where the page differs by platform", async () => {
    const mac = await (await get("/", { "user-agent": MAC_UA })).text();
    const windows = await (await get("/", { "user-agent": WINDOWS_UA })).text();
    expect(mac).toContain("Download for Mac");
    expect(windows).toContain("Download for Windows");
    expect(await (await get("/", { "user-agent": MAC_UA })).text()).toBe(mac);
    expect(await (await get("/", { "user-agent": WINDOWS_UA })).text()).toBe(windows);
    const response = await get("/download", { "user-agent": WINDOWS_UA });
    expect(response.headers.get("vary")).toMatch(/User-Agent/);
  });

  it("never gives a visitor another visitor's page, and never stores private pages", async () => {
    const alice = await signUpVerified(server, {
      name: "Alice Cachetest",
      email: "alice.cache@example.com",
      password: PASSWORD,
    });
    // Pages with something personal are not public: the feedback form fills in her email.
    const hers = await getWithCookies(server, "/feedback", alice);
    expect(await hers.text()).toContain("alice.cache@example.com");
    expect(hers.headers.get("cache-control") ?? "").not.toMatch(/public/);
    const anonymous = await (await get("/feedback")).text();
    expect(anonymous).not.toContain("alice.cache@example.com");

    // A public page asked for by a signed-in visitor is the public page: nothing of hers in it.
    for (const page of ["/", "/pricing", "/download"]) {
      const signedIn = await (await getWithCookies(server, page, alice)).text();
      expect(signedIn).not.toContain("alice.cache@example.com");
      expect(signedIn).not.toContain("Alice Cachetest");
    }

    for (let i = 0; i < 2; i++) {
      const account = await getWithCookies(server, "/account", alice);
      expect(account.status).toBe(200);
      expect(account.headers.get("cache-control")).toBe("private, no-store");
      expect(account.headers.get("etag")).toBeNull();
      expect(await account.text()).toContain("alice.cache@example.com");
    }
    const stranger = await get("/account");
    expect(stranger.status).toBe(302);
    expect(await stranger.text()).not.toContain("alice.cache@example.com");
  });

  it("does not store URLs with a query, other than tracking parameters", async () => {
    const search = await (await get("/search?q=pricing")).text();
    const plain = await (await get("/search")).text();
    expect(plain).not.toBe(search);
    const tagged = await get("/pricing?utm_source=newsletter");
    expect(tagged.headers.get("etag")).toBe((await get("/pricing")).headers.get("etag"));
  });

  it("shows a newly published release at once (the stored /download is stale)", async () => {
    const created = await postForm(server, "/admin/releases", boss, {
      intent: "token",
      name: "cache-test",
    });
    const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    expect(token).not.toBe("");
    await get("/download");
    const before = await (await get("/download")).text();
    expect(before).not.toContain("7.7.7");

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-cache-release-"));
    const dmg = path.join(dir, "Pinout-7.7.7.dmg");
    fs.writeFileSync(dmg, Buffer.alloc(50_000, 7));
    const exe = path.join(dir, "Pinout-Setup-7.7.7.exe");
    fs.writeFileSync(exe, Buffer.alloc(50_000, 8));
    const result = await runScript(
      "scripts/release-publish.ts",
      [
        "--version",
        "7.7.7",
        "--notes",
        "Cache test.",
        "--site",
        server.url,
        "--token",
        token,
      ].concat(["--file", dmg, "--file", exe]),
      {},
    );
    expect(result.output).toContain("published 7.7.7");

    // Nobody gets the stored page after the change: it is rendered again.
    for (let i = 0; i < 3; i++) expect(await (await get("/download")).text()).toContain("7.7.7");
  });
});
