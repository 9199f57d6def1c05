/**
 * Request body caps. Route actions call request.json(), formData() or text(), which read whatever
 * arrives; without a cap one request could fill the server's memory. The body is read here, up to
 * its limit, before React Router runs, so an action only ever sees a body that fits.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ServerBuild } from "react-router";
import type { RouteHandle } from "~/lib/route-handle";
import { nulField, nulMessage } from "./nul-field";
import { requestPathname, rulesOfBuild } from "./route-rules";

const KB = 1024;
const MB = 1024 * KB;

/** JSON bodies, and any body sent to /api/*: the API takes small JSON documents. */
export const JSON_BODY_LIMIT = 64 * KB;
/** Form posts (urlencoded or multipart): text fields, at most a small attachment. */
export const FORM_BODY_LIMIT = 1 * MB;
/** Any other content type. */
export const OTHER_BODY_LIMIT = 1 * MB;

export interface BodyRule {
  limit: number;
  /** Refuse with a JSON body (API clients) rather than plain text. */
  json: boolean;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";", 1)[0]!.trim().toLowerCase();
}

/** React Router matches paths case-insensitively and decoded: "/API/..." reaches the API too. */
function isApiPath(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape: React Router will not match it either; judge the raw path.
  }
  decoded = decoded.toLowerCase();
  return decoded === "/api" || decoded.startsWith("/api/");
}

/**
 * The cap of a request's body, or null when the route reads its stream itself. `pathname` is the
 * path React Router routes on (`requestPathname`); `handle` is the `body` its matched route
 * declares (app/lib/route-handle.ts), found by React Router's own matching (server/route-rules.ts).
 */
export function bodyRuleFor(
  pathname: string,
  contentType: string | undefined,
  handle?: RouteHandle["body"],
): BodyRule | null {
  if (handle === "streamed") return null;
  const type = mediaType(contentType);
  const json = type === "application/json" || type.endsWith("+json");
  const apiLike = json || isApiPath(pathname);
  if (handle) return { limit: handle.limit, json: apiLike };
  if (apiLike) return { limit: JSON_BODY_LIMIT, json: true };
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data")
    return { limit: FORM_BODY_LIMIT, json: false };
  return { limit: OTHER_BODY_LIMIT, json: false };
}

function formatLimit(bytes: number): string {
  return bytes >= MB && bytes % MB === 0 ? `${bytes / MB} MB` : `${Math.round(bytes / KB)} KB`;
}

export function tooLargeMessage(limit: number): string {
  return `Request body too large: the limit is ${formatLimit(limit)}.`;
}

/**
 * How long a refused body may keep arriving after the 413 was written. The answer is complete on
 * the wire at once (Content-Length); the connection is closed when the client stops sending, or
 * after this: closing while it still sends would reset the connection, and a reset makes the
 * client drop the 413 it had not read yet. What arrives meanwhile is thrown away, never kept.
 */
export const REFUSED_BODY_LINGER_MS = 5_000;

/**
 * Answers a refusal at once with `Connection: close`, without reading the body first, then lets
 * the body that is still arriving drain away (see REFUSED_BODY_LINGER_MS). `waiting`: the client
 * sent `Expect: 100-continue` and holds its body until told to go on, so nothing is in flight.
 */
export function refuseAndLinger(
  req: IncomingMessage,
  res: ServerResponse,
  answer: { status: number; contentType: string; body: string },
  waiting = false,
): void {
  res.writeHead(answer.status, {
    "Content-Type": answer.contentType,
    "Content-Length": Buffer.byteLength(answer.body),
    "Cache-Control": "no-store",
    // The connection is not reused: a client that sent too much once may keep doing so.
    Connection: "close",
  });
  res.write(answer.body);
  if (waiting || req.complete) {
    res.end();
    return;
  }
  const finish = () => {
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  const timer = setTimeout(finish, REFUSED_BODY_LINGER_MS);
  timer.unref();
  req.on("data", () => {});
  req.once("end", finish);
  req.once("error", finish);
  req.once("close", finish);
  req.resume();
}

/** 413 for a body over its cap (see refuseAndLinger), JSON for API clients. */
export function refuseTooLarge(
  req: IncomingMessage,
  res: ServerResponse,
  rule: BodyRule,
  waiting = false,
): void {
  const message = tooLargeMessage(rule.limit);
  refuseAndLinger(
    req,
    res,
    rule.json
      ? {
          status: 413,
          contentType: "application/json; charset=utf-8",
          body: JSON.stringify({ error: message }),
        }
      : { status: 413, contentType: "text/plain; charset=utf-8", body: message },
    waiting,
  );
}

const TOO_LARGE = Symbol("too large");

/** Reads the whole body into memory, or stops reading as soon as it passes the limit. */
function readCapped(req: Request, limit: number): Promise<Buffer | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    function onData(chunk: Buffer) {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.pause();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    }
    function onEnd() {
      stop();
      resolve(Buffer.concat(chunks, size));
    }
    function onError(error: Error) {
      stop();
      reject(error);
    }
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
  });
}

const bufferedBodies = new WeakMap<Request, Buffer>();

/** The Content-Length a request declares, or 0 (chunked, or none). */
export function declaredLength(req: IncomingMessage): number {
  const declared = Number(req.headers["content-length"] ?? "0");
  return Number.isFinite(declared) ? declared : 0;
}

/** The body rule of a request, from its route (React Router's matching) and its content type. */
export interface BodyRules {
  ruleFor(req: IncomingMessage): Promise<BodyRule | null>;
}

/**
 * The body rules of a server build: the route React Router will match for the request's path
 * (normalised as React Router normalises it) says whether it caps its own body. In development
 * the build changes as routes are edited, so it is looked up per request.
 */
export function bodyRules(build: ServerBuild | (() => Promise<ServerBuild>)): BodyRules {
  const rulesOf = rulesOfBuild(build);
  return {
    async ruleFor(req) {
      const pathname = requestPathname(req.url ?? "/");
      const table = await rulesOf();
      return bodyRuleFor(pathname, req.headers["content-type"], table.handleFor(pathname)?.body);
    },
  };
}

/**
 * Refuses a body over its limit with 413: by Content-Length before reading anything, otherwise
 * (chunked uploads) as soon as the bytes read pass the limit. A body that fits is kept in memory
 * for `withBufferedBody`.
 */
export function bodyLimit(rules: BodyRules): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // React Router's adapter never reads a GET or HEAD body: nothing to cap.
    if (req.method === "GET" || req.method === "HEAD") return next();
    rules.ruleFor(req).then((rule) => {
      if (!rule) return next();
      if (declaredLength(req) > rule.limit) return refuseTooLarge(req, res, rule);
      capBody(req, res, next, rule);
    }, next);
  };
}

/** Reads the body up to its cap (chunked bodies have no length to judge by) and keeps it. */
function capBody(req: Request, res: Response, next: NextFunction, rule: BodyRule): void {
  readCapped(req, rule.limit).then(
    async (body) => {
      if (body === TOO_LARGE) return refuseTooLarge(req, res, rule);
      const field = await nulField(body, req.get("content-type"));
      if (field !== null) {
        res.status(400);
        if (rule.json) res.json({ error: "invalid_request", error_description: nulMessage(field) });
        else res.type("text/plain").send(nulMessage(field));
        return;
      }
      bufferedBodies.set(req, body);
      next();
    },
    (error: unknown) => {
      // The client went away mid-body: a client error, not a server fault worth an error log.
      next(Object.assign(new Error("request body aborted", { cause: error }), { status: 400 }));
    },
  );
}

/**
 * The request as React Router's express adapter must see it. The adapter streams the body from
 * `req` itself (createReadableStreamFromReadable(req)), which `bodyLimit` has already read; so
 * the stream side of the request (everything a Readable has) comes from the buffered copy, and the
 * rest (URL, headers, socket, express helpers) from the request.
 */
export function withBufferedBody(req: Request): Request {
  const body = bufferedBodies.get(req);
  if (!body) return req;
  const stream = Readable.from(body.length > 0 ? [body] : [], { objectMode: false });
  return new Proxy(req, {
    get(target, property) {
      if (property in Readable.prototype) {
        const value: unknown = Reflect.get(stream, property, stream);
        return typeof value === "function" ? value.bind(stream) : value;
      }
      // Not bound: express helpers (req.get, req.app.enabled) keep working through the proxy.
      return Reflect.get(target, property, target);
    },
  });
}
