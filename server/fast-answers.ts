/**
 * Fast answers (decision record 0032): the resource routes every installed app polls (the update
 * feeds, `/api/desktop/me`) answer GET and HEAD in the raw HTTP handler, before express and React
 * Router's request handler, which cost far more than the answer itself. A route opts in with
 * `handle.fastAnswer` (app/lib/route-handle.ts), naming its answer in `FAST_ANSWERS`
 * (app/.server/http/fast-answers.server.ts): the same decision its loader makes, from the same
 * code. Which route a path reaches is decided by React Router's own matching of the build's routes
 * (no path is written here). Of the middleware React Router would run, only a layout's API rate
 * limit may be skipped, and the answer counts the request in it as the middleware would (a 429
 * past the limit); what the skipped express middleware adds to a response is added here the same
 * way: the Content-Type as express completes it, `Vary: Accept-Encoding` and the encoding the
 * compression middleware would choose (its negotiator, its settings). The request id, the
 * security headers, `Connection: close` while shutting down, the access log line and the count in
 * /metrics are the finisher's (server/finish.ts), as for every answer. Anything else (a body, a
 * query the URL parser would rewrite, an error such as the database being away) goes to the app,
 * which answers it as before (without counting a request in a rate limit twice).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { COMPRESSION_THRESHOLD } from "./compression-threshold";
import { createRequire } from "node:module";
import zlib from "node:zlib";
import compression from "compression";
import type { Response } from "express";
import type { Params, ServerBuild } from "react-router";
import {
  FAST_ANSWERS,
  type FastAnswer,
  type FastBody,
  type FastRequest,
  type FastResponse,
} from "~/.server/http/fast-answers.server";
import { apiRateLimitGroup } from "~/.server/security/rate-limit.server";
import type { RouteHandle } from "~/lib/route-handle";
import { requestPathname, type RouteRules } from "./route-rules";

/** The negotiator the compression middleware itself asks (its own dependency, its version). */
const negotiatorOfCompression = createRequire(
  createRequire(import.meta.url).resolve("compression"),
)("negotiator") as new (request: { headers: Record<string, unknown> }) => {
  encoding(available: string[], preferred?: string[]): string | undefined;
};
/**
 * The mime-types express itself uses: its `res.set` (and so React Router's express adapter)
 * completes a Content-Type with the type's charset (`application/json; charset=utf-8`).
 */
const mimeOfExpress = createRequire(createRequire(import.meta.url).resolve("express"))(
  "mime-types",
) as { contentType(type: string): string | false };
// compression 1.8 on a Node with brotli: what it offers and prefers, and its brotli quality.
const SUPPORTED_ENCODINGS = ["br", "gzip", "deflate", "identity"];
const PREFERRED_ENCODINGS = ["br", "gzip"];
const BROTLI_QUALITY = 4;
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;

/** Paths whose match is remembered; more are matched again (a Tauri path names a version). */
const MAX_REMEMBERED_PATHS = 2000;
/** A path spelt as the URL parser leaves it: no escapes, no backslash, nothing to rewrite. */
const PLAIN_PATH = /^\/[A-Za-z0-9._~\-/:@!$&'()*+,;=]*$/;
/** A request target with nothing the URL parser would escape or cut (spaces, controls, #). */
const PLAIN_TARGET = /^\/[\x21-\x22\x24-\x7e]*$/;

export interface FastAnswersOptions {
  /** The client's address as express's `req.ip` gives it (TRUST_PROXY applied). */
  clientIp: (req: IncomingMessage) => string;
  /** An answer that could not be written (never expected: a fault of this module). */
  onError?: (error: unknown) => void;
  /** Called just before an answer is written here (the finisher marks it a fast answer). */
  onAnswer?: (res: ServerResponse) => void;
  /** The answers by name: `FAST_ANSWERS` (tests give their own). */
  answers?: Readonly<Record<string, FastAnswer>>;
}

export interface FastAnswers {
  /**
   * True when it takes the request: it answers it, or hands it to `fallback` once it found it
   * should not (never after writing anything). False: not a fast route, serve it as usual.
   */
  serve(req: IncomingMessage, res: ServerResponse, fallback: () => void): boolean;
}

type Answer = FastAnswer;
type ManifestRoute = NonNullable<ServerBuild["routes"][string]>;
interface FastRoute {
  answer: Answer;
  prefix: string;
  /** The API rate-limit groups of its layouts, outermost first: the answer counts them. */
  rateLimits: readonly string[];
}

/**
 * The rate-limit groups a fast answer counted a request in before it went on to the app (the
 * answer declined or failed): their middleware lets it through without counting it again.
 */
const counted = new WeakMap<IncomingMessage, ReadonlySet<string>>();

export function countedRateLimitsOf(req: IncomingMessage): ReadonlySet<string> | undefined {
  return counted.get(req);
}

/**
 * The routes that declare a fast answer, refused when a middleware would be skipped: only API
 * rate limits (`apiRateLimit`) may sit on their layouts, and the answer counts those the same way.
 */
function fastRoutes(
  build: ServerBuild,
  answers: Readonly<Record<string, FastAnswer>>,
): Map<string, FastRoute> {
  const routes = new Map<string, FastRoute>();
  for (const route of Object.values(build.routes)) {
    const name = (route?.module.handle as RouteHandle | undefined)?.fastAnswer;
    if (!route || !name) continue;
    const answer = answers[name];
    if (!answer) throw new Error(`route ${route.id} names an unknown fast answer: ${name}`);
    const chain: ManifestRoute[] = [];
    for (let at: ManifestRoute | undefined = route; at; at = build.routes[at.parentId ?? ""])
      chain.unshift(at);
    // The root's middleware marks guarded routes private and turns a database outage into a 503:
    // a fast answer never reaches a guarded route, and any error goes to the app. A layout's API
    // rate limit is counted by the answer as its middleware counts it (checked for each answer);
    // any other middleware of a layout (a guard) would be skipped: not allowed.
    const rateLimits: string[] = [];
    const skipped: string[] = [];
    for (const at of chain) {
      if (at.parentId === undefined) continue;
      for (const middleware of at.module.middleware ?? []) {
        const group = apiRateLimitGroup(middleware);
        if (group === undefined) skipped.push(at.id);
        else rateLimits.push(group);
      }
    }
    if (skipped.length > 0)
      throw new Error(
        `route ${route.id} declares a fast answer but ${[...new Set(skipped)].join(", ")} has middleware it would skip`,
      );
    const segments = chain.flatMap((at) => (at.path ? at.path.split("/") : [])).filter(Boolean);
    const fixed: string[] = [];
    for (const segment of segments) {
      if (segment.startsWith(":") || segment.includes("*") || segment.endsWith("?")) break;
      fixed.push(segment.toLowerCase());
    }
    // Fixed segments followed by a parameter end with "/" (`/updates/`); a path of fixed
    // segments only is its own prefix (`/api/desktop/me`).
    const prefix =
      fixed.length === segments.length
        ? `/${fixed.join("/")}`
        : `/${fixed.map((s) => `${s}/`).join("")}`;
    routes.set(route.id, { answer, prefix, rateLimits });
  }
  return routes;
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Whether the compression middleware (as server/express-app.ts configures it) would touch this type. */
function compressibleType(req: IncomingMessage, contentType: string): boolean {
  if (contentType.startsWith("application/octet-stream")) return false;
  const probe = {
    getHeader: (name: string) => (/^content-type$/i.test(name) ? contentType : undefined),
  };
  return compression.filter(req as never, probe as unknown as Response);
}

function encode(body: FastBody, method: string): Uint8Array {
  let bytes = body.encoded.get(method);
  if (!bytes) {
    bytes =
      method === "br"
        ? zlib.brotliCompressSync(body.bytes, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
          })
        : method === "gzip"
          ? zlib.gzipSync(body.bytes)
          : zlib.deflateSync(body.bytes);
    body.encoded.set(method, bytes);
  }
  return bytes;
}

export function createFastAnswers(
  build: ServerBuild,
  rules: RouteRules,
  options: FastAnswersOptions,
): FastAnswers | undefined {
  const routes = fastRoutes(build, options.answers ?? FAST_ANSWERS);
  if (routes.size === 0) return undefined;
  const prefixes = [...new Set([...routes.values()].map((route) => route.prefix))];
  const matched = new Map<string, { route: FastRoute; params: Params } | null>();
  const negotiated = new Map<string, string>();
  const compressible = new Map<string, boolean>();

  function routeOf(pathname: string) {
    let found = matched.get(pathname);
    if (found !== undefined) return found;
    const leaf = rules.leafFor(pathname);
    const route = leaf ? routes.get(leaf.id) : undefined;
    found = leaf && route ? { route, params: Object.freeze({ ...leaf.params }) } : null;
    if (matched.size >= MAX_REMEMBERED_PATHS) matched.clear();
    matched.set(pathname, found);
    return found;
  }

  const types = new Map<string, string>();
  function typeAsExpressSetsIt(type: string): string {
    let set = types.get(type);
    if (set === undefined) {
      set = mimeOfExpress.contentType(type) || type;
      if (types.size >= 100) types.clear();
      types.set(type, set);
    }
    return set;
  }

  function encodingFor(req: IncomingMessage): string {
    const accept = req.headers["accept-encoding"];
    if (accept === undefined) return "identity";
    let method = negotiated.get(accept);
    if (method === undefined) {
      method =
        new negotiatorOfCompression(req).encoding(SUPPORTED_ENCODINGS, PREFERRED_ENCODINGS) ??
        "identity";
      if (negotiated.size >= 100) negotiated.clear();
      negotiated.set(accept, method);
    }
    return method;
  }

  function write(req: IncomingMessage, res: ServerResponse, answer: FastResponse) {
    const head: string[] = [];
    let vary: string | undefined;
    let contentType: string | undefined;
    let cacheControl = "";
    let declaredLength: string | undefined;
    for (const [name, given] of Object.entries(answer.headers)) {
      const lower = name.toLowerCase();
      const value = lower === "content-type" ? typeAsExpressSetsIt(given) : given;
      if (lower === "vary") vary = value;
      else if (lower === "content-length") declaredLength = value;
      else head.push(name, value);
      if (lower === "content-type") contentType = value;
      if (lower === "cache-control") cacheControl = value;
    }
    // What the compression middleware does: a compressible type varies by Accept-Encoding, and a
    // GET's body (streamed by React Router, so of any size) is sent in the encoding it negotiates.
    let compress = false;
    if (contentType !== undefined && !NO_TRANSFORM.test(cacheControl)) {
      compress = compressible.get(contentType) ?? compressibleType(req, contentType);
      compressible.set(contentType, compress);
    }
    if (compress) vary = vary ? `${vary}, Accept-Encoding` : "Accept-Encoding";
    if (vary !== undefined) head.push("Vary", vary);
    // A body with its length declared and below the threshold is sent as it is, with that length
    // (one write, no chunked framing); any other compressible GET in the negotiated encoding,
    // chunked, as the middleware streams it.
    const small = declaredLength !== undefined && Number(declaredLength) < COMPRESSION_THRESHOLD;
    let bytes: Uint8Array | undefined;
    let method = "identity";
    if (answer.body && req.method === "GET") {
      bytes = answer.body.bytes;
      method = compress && !small ? encodingFor(req) : "identity";
      if (method !== "identity") {
        bytes = encode(answer.body, method);
        head.push("Content-Encoding", method);
      }
    }
    if (declaredLength !== undefined && method === "identity")
      head.push("Content-Length", declaredLength);
    options.onAnswer?.(res);
    res.writeHead(answer.status, head);
    res.end(bytes);
  }

  return {
    serve(req, res, fallback) {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const url = req.url ?? "/";
      if (!PLAIN_TARGET.test(url)) return false;
      // A GET with a body goes through the body caps like any other.
      if (req.headers["transfer-encoding"] !== undefined) return false;
      const length = req.headers["content-length"];
      if (length !== undefined && length !== "0") return false;
      const question = url.indexOf("?");
      const rawPath = question === -1 ? url : url.slice(0, question);
      const lower = rawPath.toLowerCase();
      if (!prefixes.some((prefix) => lower.startsWith(prefix))) return false;
      // Single-fetch data requests run the route differently: React Router's.
      if (lower.endsWith(".data")) return false;
      const pathname = PLAIN_PATH.test(rawPath) ? rawPath : requestPathname(url);
      const found = routeOf(pathname);
      if (!found) return false;

      const { route } = found;
      const groups = new Set<string>();
      const request: FastRequest = {
        method: req.method as FastRequest["method"],
        params: found.params,
        searchParams: new URLSearchParams(question === -1 ? "" : url.slice(question + 1)),
        header: (name) => headerOf(req, name),
        clientIp: options.clientIp(req),
        rateLimits: route.rateLimits,
        counted: (group) => {
          groups.add(group);
          counted.set(req, groups);
        },
      };
      route
        .answer(request)
        .then(
          (answer) => {
            if (!answer || res.headersSent) return fallback();
            // An answer that skipped a layout's rate limit is a fault: the app answers (and
            // counts what was not counted).
            const uncounted = route.rateLimits.filter((group) => !groups.has(group));
            if (uncounted.length > 0) {
              options.onError?.(
                new Error(`fast answer for ${pathname} did not count ${uncounted.join(", ")}`),
              );
              return fallback();
            }
            write(req, res, answer);
          },
          // The app answers it again: an outage becomes its 503, anything else its error page.
          () => fallback(),
        )
        .catch((error: unknown) => {
          options.onError?.(error);
          if (res.headersSent) res.destroy();
          else
            res
              .writeHead(500, { "Content-Type": "text/plain; charset=utf-8" })
              .end("Internal Server Error");
        });
      return true;
    },
  };
}
