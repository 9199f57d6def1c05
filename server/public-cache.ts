/**
 * The shared cache in front of React Router (decision record 0022). A response the app marks
 * `Cache-Control: public` is the same for every visitor: its bytes are stored once (identity,
 * gzip and brotli) and answered from memory by the raw HTTP handler, before express runs, with a
 * weak ETag and 304s. This is what a CDN in front of the site would do; doing it here keeps one
 * process fast on its own.
 *
 * What may be stored: a 200 document (HTML, data, text, JSON, XML; no attachment, at most 1 MB)
 * to a GET without cookies (but the analytics choice), Authorization or Range, no Set-Cookie, at a path of
 * plain characters with no query other than tracking parameters (and React Router's `_routes` on
 * `.data` requests), varying at most by the visitor's platform (a `Vary` naming User-Agent or
 * Sec-CH-UA-Platform: three variants, keyed by `classifyPlatform`). Anything else passes through.
 *
 * Freshness: a generation number bumped when public content changes in any process on the database
 * (`publicContentChanged` and its NOTIFY: a release published, paused, pulled) makes every stored
 * page a miss at once. Past the response's shared max-age (at most 30 s, the bound should a notice
 * be lost), the stored page is still served while one request renders its replacement.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { CONSENT_COOKIE } from "~/lib/analytics/consent";
import { classifyPlatform } from "~/lib/platform";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export const MAX_TTL_MS = 30_000;
export const MAX_ENTRIES = 500;
// One character class, no nested quantifiers: a long path must never make the match backtrack.
const PLAIN_PATH = /^\/[a-z0-9._~/-]*$/;
const TRACKING_PARAM = /^(utm_[a-z_]+|gclid|fbclid|msclkid|ref)$/;
const PLATFORM_VARY = new Set(["user-agent", "sec-ch-ua-platform"]);
// Documents, not files: installers and PDFs are downloads (counted, ranged, large) and stay with
// the app; so does anything over MAX_BODY_BYTES.
const STORABLE_TYPE =
  /^(text\/(html|plain|x-script|xml|css)|application\/(json|xml|rss\+xml|atom\+xml|manifest\+json))\b/i;
export const MAX_BODY_BYTES = 1024 * 1024;
const PLATFORM_VARY_HEADER = "Sec-CH-UA-Platform, User-Agent";
// Headers of the stored response that belong to one request, not to the content.
const PER_REQUEST = new Set([
  "x-request-id",
  "date",
  "connection",
  "keep-alive",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "etag",
  "vary",
]);

interface Entry {
  etag: string;
  /** Header name/value pairs for writeHead, without the per-request and encoding ones. */
  headers: string[];
  vary: string;
  bodies: { identity: Buffer; gzip?: Buffer; br?: Buffer };
  storedAt: number;
  ttlMs: number;
  generation: number;
  revalidating: boolean;
}

interface Slot {
  byPlatform: boolean;
  variants: Map<string, Entry>;
}

export interface PublicCacheOptions {
  /**
   * Headers the finisher (server/finish.ts) sets on every answer, hits included: the security
   * headers but the page's own CSP. Not part of a page, so never stored.
   */
  sharedHeaderNames: readonly string[];
  /** Bumped by the app when public content changes (a release published, paused, pulled). */
  generation: () => number;
  /** Part of every ETag: a new build never answers 304 to a page of the previous one. */
  buildId: string;
  now?: () => number;
}

export interface PublicCache {
  /**
   * Answers from memory when it can (the request id, security headers, log line and count are
   * the finisher's, as for any answer); false hands the request to the app.
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** Express middleware before React Router: records what the app answered, when it may. */
  capture(req: Request, res: Response, next: NextFunction): void;
  size(): number;
  clear(): void;
}

/** The cache key of a URL, or null when a URL of this shape is never stored. */
export function cacheKeyOf(url: string): string | null {
  const question = url.indexOf("?");
  const path = question === -1 ? url : url.slice(0, question);
  if (!PLAIN_PATH.test(path) || path.includes("//")) return null;
  if (question === -1) return path;
  const kept: string[] = [];
  for (const pair of url.slice(question + 1).split("&")) {
    if (pair === "") continue;
    const name = pair.split("=", 1)[0] ?? "";
    if (TRACKING_PARAM.test(name)) continue;
    if (name === "_routes" && path.endsWith(".data")) {
      kept.push(pair);
      continue;
    }
    return null;
  }
  return kept.length === 0 ? path : `${path}?${kept.join("&")}`;
}

/** Seconds a shared cache may keep the response (s-maxage, else max-age), or null if not public. */
export function sharedMaxAge(cacheControl: string): number | null {
  const directives = cacheControl
    .toLowerCase()
    .split(",")
    .map((part) => part.trim());
  if (!directives.includes("public")) return null;
  if (directives.some((d) => d === "no-store" || d === "private" || d === "no-cache")) return null;
  const value = (name: string) => {
    const found = directives.find((d) => d.startsWith(`${name}=`));
    return found === undefined ? undefined : Number(found.slice(name.length + 1));
  };
  const seconds = value("s-maxage") ?? value("max-age");
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** Which stored encoding to send for an Accept-Encoding header. */
export function pickEncoding(accept: string | undefined): "br" | "gzip" | "identity" {
  if (!accept) return "identity";
  const offered = new Map<string, number>();
  for (const part of accept.toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    const q = params.find((p) => p.trim().startsWith("q="));
    offered.set(name.trim(), q === undefined ? 1 : Number(q.trim().slice(2)) || 0);
  }
  const allows = (name: string) => (offered.get(name) ?? offered.get("*") ?? 0) > 0;
  if (allows("br")) return "br";
  if (allows("gzip")) return "gzip";
  return "identity";
}

function platformOf(req: IncomingMessage): string {
  const hint = req.headers["sec-ch-ua-platform"];
  return classifyPlatform(typeof hint === "string" ? hint : null, req.headers["user-agent"] ?? "");
}

/**
 * The analytics choice is read only in the browser and by POST /api/events, never while a page
 * renders, so a visitor who answered the banner still gets the shared bytes.
 */
const NON_PERSONAL_COOKIES: ReadonlySet<string> = new Set([CONSENT_COOKIE]);

function personal(req: IncomingMessage): boolean {
  if (req.headers.authorization !== undefined) return true;
  const cookies = req.headers.cookie;
  if (cookies === undefined) return false;
  return cookies.split(";").some((cookie) => {
    const name = cookie.split("=", 1)[0]?.trim() ?? "";
    return name !== "" && !NON_PERSONAL_COOKIES.has(name);
  });
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, "");
  return header === "*" || header.split(",").some((tag) => weak(tag) === weak(etag));
}

export function createPublicCache(options: PublicCacheOptions): PublicCache {
  const now = options.now ?? Date.now;
  const slots = new Map<string, Slot>();
  const sharedNames = new Set(options.sharedHeaderNames.map((name) => name.toLowerCase()));

  function lookup(req: IncomingMessage, key: string): Entry | undefined {
    const slot = slots.get(key);
    if (!slot) return undefined;
    return slot.variants.get(slot.byPlatform ? platformOf(req) : "");
  }

  function store(key: string, variant: string, byPlatform: boolean, entry: Entry) {
    let slot = slots.get(key);
    if (!slot || slot.byPlatform !== byPlatform) {
      slot = { byPlatform, variants: new Map() };
    }
    // Map order is insertion order: re-inserting keeps the most recently stored last.
    slots.delete(key);
    slots.set(key, slot);
    slot.variants.set(variant, entry);
    while (slots.size > MAX_ENTRIES) {
      const oldest = slots.keys().next().value;
      if (oldest === undefined) break;
      slots.delete(oldest);
    }
    if (entry.bodies.gzip) return;
    // Compressed copies are made off the event loop; until they exist, identity is sent.
    void Promise.all([
      gzip(entry.bodies.identity, { level: 9 }),
      brotli(entry.bodies.identity, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
      }),
    ]).then(
      ([gz, br]) => {
        entry.bodies.gzip = gz;
        entry.bodies.br = br;
      },
      () => {},
    );
  }

  return {
    serve(req, res) {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      if (req.headers.range !== undefined) return false;
      const key = req.url === undefined ? null : cacheKeyOf(req.url);
      if (key === null) return false;
      const entry = lookup(req, key);
      if (!entry) return false;
      // Content changed here (a release published): nobody gets the old page from this process.
      if (entry.generation !== options.generation()) return false;
      const fresh = now() - entry.storedAt < entry.ttlMs;
      if (!fresh && !entry.revalidating && !personal(req)) {
        // This request renders the replacement; everyone else keeps getting the stored bytes.
        entry.revalidating = true;
        return false;
      }
      const common = [...entry.headers, "ETag", entry.etag];
      common.push("Vary", entry.vary ? `${entry.vary}, Accept-Encoding` : "Accept-Encoding");
      if (matchesEtag(req.headers["if-none-match"], entry.etag)) {
        res.writeHead(304, common);
        res.end();
        return true;
      }
      const encoding = pickEncoding(req.headers["accept-encoding"]);
      const body =
        encoding === "identity" ? entry.bodies.identity : (entry.bodies[encoding] ?? null);
      const sent = body ?? entry.bodies.identity;
      const headers = [...common, "Content-Length", String(sent.length)];
      if (body && encoding !== "identity") headers.push("Content-Encoding", encoding);
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : sent);
      return true;
    },

    capture(req, res, next) {
      const key =
        req.method === "GET" && !personal(req) && req.headers.range === undefined
          ? cacheKeyOf(req.originalUrl)
          : null;
      if (key === null) return next();
      const chunks: Buffer[] = [];
      // Decided at the first byte, once the status and headers are set: most responses are not
      // public and are not copied at all.
      let storable: boolean | undefined;
      let size = 0;
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      const keep = (chunk: unknown, encoding: unknown) => {
        storable ??=
          res.statusCode === 200 &&
          !res.hasHeader("content-disposition") &&
          STORABLE_TYPE.test(String(res.getHeader("content-type") ?? "")) &&
          sharedMaxAge(String(res.getHeader("cache-control") ?? "")) !== null;
        if (!storable) return;
        if (typeof chunk === "string")
          chunks.push(
            Buffer.from(
              chunk,
              typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8",
            ),
          );
        else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
        size += chunks.at(-1)?.length ?? 0;
        if (size > MAX_BODY_BYTES) {
          storable = false;
          chunks.length = 0;
        }
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        return write(chunk, ...rest);
      }) as Response["write"];
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (chunk !== undefined && typeof chunk !== "function") keep(chunk, rest[0]);
        return end(chunk, ...rest);
      }) as Response["end"];
      res.on("finish", () => {
        const previous = lookup(req, key);
        const stored =
          storable === true && remember(req, res, key, Buffer.concat(chunks), previous);
        if (!stored && previous) previous.revalidating = false;
      });
      next();
    },

    size: () => slots.size,
    clear: () => slots.clear(),
  };

  function remember(
    req: Request,
    res: Response,
    key: string,
    body: Buffer,
    previous: Entry | undefined,
  ): boolean {
    if (res.statusCode !== 200 || res.getHeader("set-cookie") !== undefined) return false;
    const seconds = sharedMaxAge(String(res.getHeader("cache-control") ?? ""));
    if (seconds === null) return false;
    const vary = String(res.getHeader("vary") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== "" && name !== "accept-encoding");
    if (vary.some((name) => !PLATFORM_VARY.has(name))) return false;
    const byPlatform = vary.length > 0;
    const headers: string[] = [];
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (value === undefined || PER_REQUEST.has(name) || sharedNames.has(name)) continue;
      for (const item of Array.isArray(value) ? value : [String(value)]) headers.push(name, item);
    }
    const etag = `W/"${createHash("sha256").update(options.buildId).update(body).digest("base64url").slice(0, 32)}"`;
    const variant = byPlatform ? platformOf(req) : "";
    const current = previous ?? slots.get(key)?.variants.get(variant);
    const entry: Entry = {
      etag,
      headers,
      vary: vary.length > 0 ? PLATFORM_VARY_HEADER : "",
      bodies: current && current.etag === etag ? current.bodies : { identity: body },
      storedAt: now(),
      ttlMs: Math.min(seconds * 1000, MAX_TTL_MS),
      generation: options.generation(),
      revalidating: false,
    };
    store(key, variant, byPlatform, entry);
    return true;
  }
}
