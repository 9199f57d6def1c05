import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import fc from "fast-check";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createFinisher } from "./finish";
import {
  cacheKeyOf,
  createPublicCache,
  MAX_BODY_BYTES,
  MAX_ENTRIES,
  pickEncoding,
  sharedMaxAge,
} from "./public-cache";

describe("what the shared cache may store", () => {
  it("keys plain paths, drops tracking parameters, refuses any other query", () => {
    expect(cacheKeyOf("/pricing")).toBe("/pricing");
    expect(cacheKeyOf("/pricing?utm_source=x&utm_medium=y&gclid=1")).toBe("/pricing");
    expect(cacheKeyOf("/pricing?billing=yearly")).toBeNull();
    expect(cacheKeyOf("/search?q=pins")).toBeNull();
    expect(cacheKeyOf("/pricing.data?_routes=routes%2Fpricing")).toBe(
      "/pricing.data?_routes=routes%2Fpricing",
    );
    expect(cacheKeyOf("/pricing?_routes=x")).toBeNull();
    // Encoded, upper-case or doubled paths render the same page under endless names: never stored.
    for (const odd of ["/%61bout", "/ABOUT", "//about", "/a b", "/about?"]) {
      expect(cacheKeyOf(odd)).toBe(odd === "/about?" ? "/about" : null);
    }
  });

  it("decides at once on long paths that are not plain (no backtracking)", () => {
    const path = `/_sandbox/razorpay/checkout/subscriptions/${"abcdefgh".repeat(8)}X`;
    expect(cacheKeyOf(path)).toBeNull();
    expect(cacheKeyOf(`/${"a".repeat(5_000)}/B`)).toBeNull();
    // The pattern this replaced backtracked exponentially here and never returned (the test's
    // time-out catches that; the event loop of the whole server was stuck on it).
  });

  it("never keys a URL with a non-tracking parameter (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/), fc.string(), (name, value) => {
        fc.pre(!/^(utm_[a-z_]+|gclid|fbclid|msclkid|ref)$/.test(name));
        expect(cacheKeyOf(`/pricing?${name}=${encodeURIComponent(value)}`)).toBeNull();
      }),
    );
  });

  it("reads the shared max-age of public responses only", () => {
    expect(sharedMaxAge("public, max-age=0, s-maxage=30")).toBe(30);
    expect(sharedMaxAge("public, max-age=3600")).toBe(3600);
    expect(sharedMaxAge("public, max-age=0")).toBeNull();
    expect(sharedMaxAge("private, no-store")).toBeNull();
    expect(sharedMaxAge("public, no-store, max-age=60")).toBeNull();
    expect(sharedMaxAge("max-age=60")).toBeNull();
    expect(sharedMaxAge("")).toBeNull();
  });

  it("picks brotli, then gzip, then identity, honouring q=0", () => {
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("identity")).toBe("identity");
    expect(pickEncoding(undefined)).toBe("identity");
  });
});

describe("the shared cache in front of an app", () => {
  let server: http.Server | undefined;
  afterEach(() => server?.close());

  async function setUp(cacheControl = "public, max-age=0, s-maxage=30") {
    let renders = 0;
    let clock = 1_000_000;
    let generation = 0;
    // Every request is opened by the finisher first, as server/pipeline.ts does.
    const finisher = createFinisher({
      security: {
        headers: { "X-Frame-Options": "DENY" },
        basePolicy: "default-src 'self'",
        pagePolicy: () => "default-src 'self'",
      },
      log: pino({ level: "silent" }),
      clientIp: () => "127.0.0.1",
      closing: () => false,
      routeOf: () => "page",
      observe: () => {},
    });
    const cache = createPublicCache({
      sharedHeaderNames: ["X-Frame-Options"],
      generation: () => generation,
      buildId: "build-a",
      now: () => clock,
    });
    const app = express();
    app.use(cache.capture);
    app.get("/{*path}", (req, res) => {
      renders += 1;
      if (req.path === "/cookie") res.setHeader("Set-Cookie", "a=b");
      if (req.path === "/vary-cookie") res.setHeader("Vary", "Cookie");
      if (req.path === "/platform") res.setHeader("Vary", "User-Agent");
      if (req.path === "/file.dmg") {
        res.setHeader("Cache-Control", cacheControl);
        res.type("application/octet-stream").send(Buffer.alloc(10, 1));
        return;
      }
      if (req.path === "/big") {
        res.setHeader("Cache-Control", cacheControl);
        res.type("html").send("x".repeat(MAX_BODY_BYTES + 1));
        return;
      }
      res.setHeader("Cache-Control", req.path === "/private" ? "private, no-store" : cacheControl);
      res.type("html").send(`<p>${req.path} ${req.get("user-agent") ?? ""} render ${renders}</p>`);
    });
    server = http.createServer((req, res) => {
      finisher.open(req, res);
      if (!cache.serve(req, res)) app(req, res);
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(url + path, { headers });
      return { response, text: await response.text() };
    };
    return {
      get,
      cache,
      renders: () => renders,
      advance: (ms: number) => (clock += ms),
      bump: () => (generation += 1),
    };
  }

  it("renders once, then answers from memory with an ETag, a 304 and the finisher's headers", async () => {
    const site = await setUp();
    const first = await site.get("/pricing", { "x-request-id": "request-0001" });
    const second = await site.get("/pricing", { "x-request-id": "request-0002" });
    expect(site.renders()).toBe(1);
    expect(second.text).toBe(first.text);
    const etag = second.response.headers.get("etag") ?? "";
    expect(etag).toMatch(/^W\/"/);
    // The finisher's, once: neither stored with the page nor sent twice.
    expect(second.response.headers.get("x-frame-options")).toBe("DENY");
    expect(second.response.headers.get("x-request-id")).toBe("request-0002");
    expect(second.response.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30");
    const notModified = await site.get("/pricing", { "if-none-match": etag });
    expect(notModified.response.status).toBe(304);
    expect(site.renders()).toBe(1);
  });

  it("serves a stale page while one request renders the next, and forgets on a content change", async () => {
    const site = await setUp();
    await site.get("/download");
    site.advance(31_000);
    const revalidating = await site.get("/download");
    expect(revalidating.text).toContain("render 2");
    expect((await site.get("/download")).text).toContain("render 2");
    site.bump();
    expect((await site.get("/download")).text).toContain("render 3");
    expect((await site.get("/download")).text).toContain("render 3");
    expect(site.renders()).toBe(3);
  });

  it("stores nothing personal: cookies, Authorization, Set-Cookie, private pages, other Vary", async () => {
    const site = await setUp();
    await site.get("/mine", { cookie: "session=1" });
    await site.get("/mine", { authorization: "Bearer x" });
    await site.get("/cookie");
    await site.get("/private");
    await site.get("/vary-cookie");
    // Files and oversized bodies are not documents to share from memory; ranges go to the app.
    await site.get("/file.dmg");
    await site.get("/big");
    await site.get("/ranged", { range: "bytes=0-3" });
    expect(site.cache.size()).toBe(0);
    // The anonymous page is shared with signed-in visitors: it has nothing of theirs.
    await site.get("/pricing");
    const signedIn = await site.get("/pricing", { cookie: "session=1" });
    expect(signedIn.text).toContain("render 9");
    expect(site.renders()).toBe(9);
    await site.get("/pricing", { range: "bytes=0-3" });
    expect(site.renders()).toBe(10);
  });

  it("stores a page rendered for a visitor whose only cookie is their analytics choice", async () => {
    const site = await setUp();
    // A signed-in visitor's render is never stored…
    await site.get("/pricing", { cookie: "consent=granted; session=1" });
    await site.get("/pricing", { cookie: "session=1; consent=denied" });
    expect(site.cache.size()).toBe(0);
    // …but the analytics choice is not read while rendering, so that page is everyone's.
    const first = await site.get("/pricing", { cookie: " consent=granted ;" });
    expect(site.cache.size()).toBe(1);
    for (const cookie of [undefined, "consent=denied", "consent=granted; session=1"]) {
      const answered = await site.get("/pricing", cookie ? { cookie } : {});
      expect(answered.text).toBe(first.text);
    }
    expect(site.renders()).toBe(3);
  });

  it("keeps one variant per platform when the page varies by User-Agent", async () => {
    const site = await setUp();
    const mac = { "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)" };
    const windows = { "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64)" };
    const macPage = await site.get("/platform", mac);
    const windowsPage = await site.get("/platform", windows);
    expect(windowsPage.text).not.toBe(macPage.text);
    expect((await site.get("/platform", mac)).text).toBe(macPage.text);
    expect((await site.get("/platform", windows)).text).toBe(windowsPage.text);
    expect(site.renders()).toBe(2);
    expect(windowsPage.response.headers.get("vary")).toBe("User-Agent");
    expect((await site.get("/platform", windows)).response.headers.get("vary")).toBe(
      "Sec-CH-UA-Platform, User-Agent, Accept-Encoding",
    );
  });

  it("holds at most MAX_ENTRIES paths", async () => {
    const site = await setUp();
    for (let i = 0; i < MAX_ENTRIES + 20; i++) await site.get(`/page-${i}`);
    expect(site.cache.size()).toBe(MAX_ENTRIES);
  });
});
