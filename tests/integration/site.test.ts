import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines } from "../support/engines";
import {
  BROWSER_UA,
  GOOGLEBOT_UA,
  inlineScriptHashes,
  jsonLd,
  metaContent,
  titleOf,
} from "../support/html";
import { type RunningTestServer, startServerOn } from "../support/server";

/** Every route of the spec with the title it must carry (pages later issues fill in included). */
const PUBLIC_PAGES: [path: string, title: RegExp][] = [
  ["/", /^Pinout/],
  ["/landing", /\| Pinout$/],
  ["/pricing", /^Pricing \| Pinout$/],
  ["/download", /^Download \| Pinout$/],
  ["/feedback", /^Feedback \| Pinout$/],
  ["/search", /^Search \| Pinout$/],
  ["/blog", /^Blog \| Pinout$/],
  ["/blog/welcome-to-pinout-blog", /Pinout blog/],
  ["/legal", /^Legal \| Pinout$/],
  ["/legal/terms", /^Terms of Service \| Pinout$/],
  ["/legal/refund", /^Refund and Cancellation Policy \| Pinout$/],
  ["/legal/contact", /^Contact Us \| Pinout$/],
  ["/legal/cookies", /^Cookie Policy \| Pinout$/],
  ["/legal/privacy", /^Privacy Policy \| Pinout$/],
  ["/legal/shipping", /^Shipping and Delivery Policy \| Pinout$/],
  ["/auth", /^Log in \| Pinout$/],
];

const AUTH_GUARDED = [
  "/login-success",
  "/account",
  "/account/usage",
  "/account/profile",
  "/account/security",
  "/account/subscription",
  "/billing",
  "/invoices",
  "/fix-subscription",
];
const ADMIN_GUARDED = ["/admin", "/admin/users", "/admin/subscriptions", "/admin-fix-subscription"];

describe.each(engines())("the site on $name", (engine) => {
  let server: RunningTestServer;
  const get = (path: string, init: RequestInit = {}) =>
    fetch(server.url + path, {
      redirect: "manual",
      ...init,
      headers: { "user-agent": BROWSER_UA, ...(init.headers as Record<string, string>) },
    });

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { ERROR_PROBE: "true" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(PUBLIC_PAGES)("serves %s with its own title and description", async (path, title) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(titleOf(html)).toMatch(title);
    expect(metaContent(html, "description")?.length).toBeGreaterThan(10);
    expect(html).toContain('<html lang="en"');
  });

  it("answers an unknown path with the 404 page", async () => {
    const response = await get("/no-such-page");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(titleOf(html)).toBe("Page Not Found | Pinout");
    expect(html).toContain("Page not found: /no-such-page");
  });

  it("gives curl the 404 page too (a person at a terminal, not a crawler)", async () => {
    const response = await get("/no-such-page", { headers: { "user-agent": "curl/8.5.0" } });
    expect(response.status).toBe(404);
    expect(titleOf(await response.text())).toBe("Page Not Found | Pinout");
  });

  it("gives bots the status with a short plain-text body", async () => {
    const response = await get("/no-such-page", { headers: { "user-agent": GOOGLEBOT_UA } });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await response.text();
    expect(body).not.toContain("<html");
    expect(body.length).toBeLessThan(100);

    const error = await get("/ops/error-probe", { headers: { "user-agent": GOOGLEBOT_UA } });
    expect(error.status).toBe(500);
    expect(await error.text()).not.toContain("<html");
  });

  it("renders unhandled errors as a 500 page without a stack, logged with the request id", async () => {
    const response = await get("/ops/error-probe", {
      headers: { "x-request-id": "probe-request-0001" },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-request-id")).toBe("probe-request-0001");
    const html = await response.text();
    expect(titleOf(html)).toBe("Internal Server Error | Pinout");
    expect(html).not.toContain("deliberate failure");
    expect(html).not.toMatch(/at .*\.js:\d+/);
    await expect
      .poll(() =>
        server.logs().some((line) => line.reqId === "probe-request-0001" && line.level === "error"),
      )
      .toBe(true);
    const logged = server
      .logs()
      .find((line) => line.reqId === "probe-request-0001" && line.level === "error");
    expect(logged?.err).toMatchObject({ message: expect.stringContaining("deliberate failure") });
  });

  it.each(AUTH_GUARDED)("redirects anonymous visitors of %s to sign-in", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/auth?next=${encodeURIComponent(path)}`);
  });

  it.each(ADMIN_GUARDED)("redirects anonymous visitors of %s to sign-in", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/auth?next=${encodeURIComponent(path)}`);
  });

  it("guards data requests and form posts, not only documents", async () => {
    const data = await get("/account.data");
    expect(await data.text()).toContain("/auth?next=%2Faccount");
    // From a page of the site, as a browser sends it (a post with neither Origin nor
    // Sec-Fetch-Site is refused before any guard: cross-site.test.ts).
    const post = await get("/admin/users", {
      method: "POST",
      body: new URLSearchParams({ a: "b" }),
      headers: { origin: server.url },
    });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toBe("/auth?next=%2Fadmin%2Fusers");
  });

  it("sends the security headers, with the hash of every inline script in the CSP", async () => {
    const first = await get("/");
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("permissions-policy")).toContain("camera=()");
    // Plain http here: no HSTS (see the https test in server/security-headers.test.ts).
    expect(first.headers.get("strict-transport-security")).toBeNull();
    expect(first.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const html = await first.text();
    const hashes = inlineScriptHashes(html);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(csp).toContain(`'${hash}'`);
    // Exactly one policy: a second one would be intersected with it and block the page.
    expect(first.headers.get("content-security-policy")).not.toContain(", default-src");
    // Non-HTML answers keep the base policy.
    const json = await get("/api/session");
    expect(json.headers.get("content-security-policy")).toContain("script-src 'self';");
  });

  it("lets crawlers index the search page but not its result pages", async () => {
    const robots = async (path: string) =>
      metaContent(await (await get(path)).text(), "robots") ?? null;
    expect(await robots("/search")).toBeNull();
    expect(await robots("/search?q=pins")).toBe("noindex, follow");
  });

  it("serves React Router's scripts as written, after the stylesheet, with the CSP allowing them", async () => {
    const response = await get("/pricing");
    const html = await response.text();
    const head = html.slice(0, html.indexOf("</head>"));
    // The stylesheet the first paint waits for is requested before any script (decision 0026).
    const stylesheet = head.search(/<link rel="stylesheet" href="\/assets\/app-[\w-]+\.css"/);
    const firstPreload = head.search(/<link rel="modulepreload" href="\/assets\/[\w.-]+\.js"\/>/);
    expect(stylesheet).toBeGreaterThan(-1);
    expect(firstPreload).toBeGreaterThan(stylesheet);
    expect(html).not.toContain("text/x-held-module");
    const module = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html);
    expect(module?.[1]).toContain('import("/assets/entry.client-');
    const policy = response.headers.get("content-security-policy") ?? "";
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    expect(policy).toContain(sha(module?.[1] ?? ""));
  });

  it("describes the organisation and the site search in JSON-LD, with social tags", async () => {
    const html = await (await get("/")).text();
    const graph = (jsonLd(html)[0] as { "@graph": Record<string, unknown>[] })["@graph"];
    const organization = graph.find((node) => node["@type"] === "Organization");
    const website = graph.find((node) => node["@type"] === "WebSite");
    expect(organization).toMatchObject({
      name: "Pinout Labs Private Limited",
      url: `${server.url}/`,
    });
    expect(organization?.sameAs).toEqual(
      expect.arrayContaining([expect.stringMatching(/^https:\/\//)]),
    );
    expect(website?.potentialAction).toMatchObject({
      "@type": "SearchAction",
      target: { urlTemplate: `${server.url}/search?q={search_term_string}` },
    });
    expect(metaContent(html, "og:image")).toBe(`${server.url}/og/og-default.jpg`);
    expect(metaContent(html, "twitter:image")).toBe(`${server.url}/og/og-default.jpg`);
    expect(html).toContain(`<link rel="canonical" href="${server.url}/"/>`);
  });

  it("describes the plans on /pricing as a SoftwareApplication with Offers in INR, and its FAQ", async () => {
    const html = await (await get("/pricing")).text();
    const blocks = jsonLd(html) as Record<string, unknown>[];
    const flat = blocks.flatMap((block) => (Array.isArray(block) ? block : [block])) as Record<
      string,
      unknown
    >[];
    const app = flat.find((node) => node["@type"] === "SoftwareApplication") as {
      offers: Record<string, unknown>[];
    };
    expect(app.offers.map((offer) => [offer.price, offer.priceCurrency])).toEqual([
      ["0.00", "INR"],
      ["699.00", "INR"],
      ["6999.00", "INR"],
    ]);
    const faq = flat.find((node) => node["@type"] === "FAQPage") as { mainEntity: unknown[] };
    expect(faq.mainEntity.length).toBeGreaterThan(3);
    expect(html).toContain("₹699");
  });

  it("serves the default social image as a 1200x630 JPEG", async () => {
    const response = await get("/og/og-default.jpg");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The first start-of-frame marker (SOF0..SOF2) holds height then width.
    let offset = 2;
    let size: { width: number; height: number } | undefined;
    while (offset < bytes.length) {
      const marker = bytes.readUInt16BE(offset);
      const length = bytes.readUInt16BE(offset + 2);
      if (marker >= 0xffc0 && marker <= 0xffc2) {
        size = { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
        break;
      }
      offset += 2 + length;
    }
    expect(size).toEqual({ width: 1200, height: 630 });
  });

  it("serves fingerprinted assets with immutable caching and compresses HTML", async () => {
    const html = await (await get("/")).text();
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const response = await get(asset!);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const missing = await get("/assets/does-not-exist.js");
    expect(missing.status).toBe(404);
    const compressed = await get("/", { headers: { "accept-encoding": "gzip" } });
    expect(compressed.headers.get("content-encoding")).toBe("gzip");
  });

  it("reports health, readiness and the build id", async () => {
    expect(await (await get("/healthz")).json()).toEqual({ status: "ok" });
    const ready = await get("/readyz");
    expect(ready.status).toBe(200);
    const readiness = (await ready.json()) as { migrations: { applied: number; expected: number } };
    expect(readiness).toMatchObject({ ok: true, database: "reachable" });
    expect(readiness.migrations.applied).toBe(readiness.migrations.expected);
    const version = await get("/version.json");
    expect(version.headers.get("cache-control")).toBe("no-store");
    expect(await version.json()).toEqual({
      buildId: expect.any(String),
      builtAt: expect.any(String),
    });
  });

  it("says nobody is signed in to an anonymous session check", async () => {
    const response = await get("/api/session");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(await response.json()).toEqual({ user: null });
  });

  it("logs one JSON line per request with its id, and never a query string", async () => {
    await get("/pricing?token=secret-one-time-token", {
      headers: { "x-request-id": "query-log-check-1" },
    });
    // The access log line is written when the response finishes, a moment after we read it.
    await expect
      .poll(() => server.logs().some((entry) => entry.reqId === "query-log-check-1"))
      .toBe(true);
    const line = server
      .logs()
      .find((entry) => entry.reqId === "query-log-check-1" && entry.msg === "request");
    expect(line).toMatchObject({
      method: "GET",
      path: "/pricing",
      status: 200,
      ip: "127.0.0.1",
    });
    expect(server.output()).not.toContain("secret-one-time-token");
  });
});
