/**
 * The shared cache answers public pages from memory, before express and React Router
 * (server/public-cache.ts, docs/decisions/0022). What a visitor gets must not depend on which way
 * their request went: every stored page, in each platform variant, answered from memory (as
 * brotli, gzip and identity, and to HEAD) has the status, the headers and the bytes React Router's
 * own rendering of it had. Which way each request went is read from its log line (`cache: "hit"`
 * or not), so two renderings cannot pass for a rendering and a hit.
 *
 * Left out of the comparison is only what a hit adds as a cache in front of the site would (its
 * ETag, for the 304s public-cache.test.ts tests) and the framing: Content-Length or chunks, and the
 * Content-Encoding of bytes compared decoded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_HEADERS } from "../support/auth";
import { engines } from "../support/engines";
import { type RawAnswer, raw } from "../support/raw-http";
import { type RunningTestServer, startServerOn } from "../support/server";

const LINUX_UA = BROWSER_HEADERS["user-agent"];
const MAC_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 Chrome/126.0";
const WINDOWS_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0";

/** Public pages and documents (each stored once) and those stored once per platform. */
const PAGES = [
  "/pricing",
  "/about",
  "/blog",
  "/blog/debugging-uart-with-a-serial-monitor",
  "/legal",
  "/legal/terms",
  "/search",
  "/download/history",
  "/pricing.data",
  "/.well-known/jwks.json",
];
const PLATFORM_PAGES = ["/", "/download"];

/** What a hit must equal: the framing and the hit's own validator left out (see above). */
function comparable(answer: RawAnswer): RawAnswer {
  const headers = answer.headers
    .filter((line) => !/^(etag|content-length|transfer-encoding|content-encoding):/.test(line))
    // The same names in either order: the cache writes the page's, then Accept-Encoding.
    .map((line) =>
      line.startsWith("vary:")
        ? `vary: ${line
            .slice("vary:".length)
            .split(",")
            .map((name) => name.trim().toLowerCase())
            .sort()
            .join(", ")}`
        : line,
    );
  return { ...answer, headers };
}

describe.each(engines())("public cache hits answer as React Router did on $name", (engine) => {
  let server: RunningTestServer;
  let sent = 0;

  beforeAll(async () => {
    server = await startServerOn(engine);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** One request with an id of its own; the answer, and whether the cache answered it. */
  async function ask(method: string, path: string, headers: string) {
    const id = `parity-request-${++sent}`;
    const answer = await raw(
      server.port,
      `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-Id: ${id}\r\n${headers}\r\n`,
    );
    const logged = () =>
      server.logs().find((entry) => entry.msg === "request" && entry.reqId === id);
    await expect.poll(logged).toBeDefined();
    return { answer, hit: logged()?.cache === "hit" };
  }

  const platforms = { Linux: LINUX_UA, Mac: MAC_UA, Windows: WINDOWS_UA };
  const cases = [
    ...PAGES.map((path) => ({ path, platform: "Linux", userAgent: LINUX_UA })),
    ...PLATFORM_PAGES.flatMap((path) =>
      Object.entries(platforms).map(([platform, userAgent]) => ({ path, platform, userAgent })),
    ),
  ];

  it.each(cases)("$path on $platform", async ({ path, userAgent }) => {
    const agent = `User-Agent: ${userAgent}\r\n`;
    const rendered = await ask("GET", path, `${agent}Accept-Encoding: gzip, deflate, br\r\n`);
    expect(rendered.hit, "the first request is rendered").toBe(false);
    expect(rendered.answer.status).toBe("HTTP/1.1 200 OK");
    const expected = comparable(rendered.answer);

    for (const encoding of ["gzip, deflate, br", "gzip", "identity"]) {
      const stored = await ask("GET", path, `${agent}Accept-Encoding: ${encoding}\r\n`);
      expect(stored.hit, `${encoding}: answered from memory`).toBe(true);
      expect(comparable(stored.answer), encoding).toEqual(expected);
    }
    const head = await ask("HEAD", path, `${agent}Accept-Encoding: gzip, deflate, br\r\n`);
    expect(head.hit, "HEAD: answered from memory").toBe(true);
    expect(comparable(head.answer)).toEqual({ ...expected, body: "" });
  });
});
