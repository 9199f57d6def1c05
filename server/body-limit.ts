/**
 * Request body caps. Route actions call request.json(), formData() or text(), which read whatever
 * arrives; without a cap one request could fill the server's memory. The body is read here, up to
 * its limit, before React Router runs, so an action only ever sees a body that fits.
 */
import { Readable } from "node:stream";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { nulField, nulMessage } from "./nul-field";

const KB = 1024;
const MB = 1024 * KB;

/** JSON bodies, and any body sent to /api/*: the API takes small JSON documents. */
export const JSON_BODY_LIMIT = 64 * KB;
/** Form posts (urlencoded or multipart): text fields, at most a small attachment. */
export const FORM_BODY_LIMIT = 1 * MB;
/** Any other content type. */
export const OTHER_BODY_LIMIT = 1 * MB;

/**
 * Paths whose handlers read the body themselves with their own limit: not buffered or capped here.
 * A prefix also covers React Router's `.data` URLs (`/admin/releases.data`).
 */
export const BODY_LIMIT_EXEMPT_PREFIXES = [
  // Caps its body at 256 KB itself, and verifies the signature over the raw bytes.
  "/api/webhooks/razorpay",
] as const;

/**
 * Release file uploads (PUT /api/admin/releases/:id/files/:name): installers of hundreds of MB,
 * streamed to storage with their own limit (RELEASE_UPLOAD_MAX_MB). Nothing else about releases
 * is exempt: their forms and JSON are capped like any other.
 */
const RELEASE_UPLOAD = /^\/api\/admin\/releases\/[^/]+\/files\/[^/]+$/;

export interface BodyRule {
  limit: number;
  /** Refuse with a JSON body (API clients) rather than plain text. */
  json: boolean;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";", 1)[0]!.trim().toLowerCase();
}

/** React Router matches paths case-insensitively and decoded: "/API/..." reaches the API too. */
function isApiPath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: React Router will not match it either; judge the raw path.
  }
  decoded = decoded.toLowerCase();
  return decoded === "/api" || decoded.startsWith("/api/");
}

/** The cap of a request's body, or null for the exempt paths. */
export function bodyRuleFor(path: string, contentType: string | undefined): BodyRule | null {
  // Case-sensitive on purpose: only the exact spelling is exempt, any other one is capped.
  if (BODY_LIMIT_EXEMPT_PREFIXES.some((prefix) => path.startsWith(prefix))) return null;
  if (RELEASE_UPLOAD.test(path)) return null;
  const type = mediaType(contentType);
  const json = type === "application/json" || type.endsWith("+json");
  if (json || isApiPath(path)) return { limit: JSON_BODY_LIMIT, json: true };
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

/** How much of a refused body is read and thrown away so the client gets to read the 413. */
const DRAIN_LIMIT = 8 * MB;

/**
 * Reads and discards the rest of a refused body (up to DRAIN_LIMIT, then the socket is cut), and
 * answers once it has arrived: a server that answers and closes while the client is still sending
 * gives the client a broken pipe instead of the 413 message.
 */
function afterDrain(req: Request, answer: () => void): void {
  if (req.complete) return answer();
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMIT) req.socket.destroy();
  });
  req.once("end", answer);
  req.resume();
}

function refuse(req: Request, res: Response, rule: BodyRule): void {
  const message = tooLargeMessage(rule.limit);
  afterDrain(req, () => {
    // The connection is not reused: a client that sent too much once may keep doing so.
    res.set("Connection", "close").status(413);
    if (rule.json) res.json({ error: message });
    else res.type("text/plain").send(message);
  });
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

/**
 * Refuses a body over its limit with 413: by Content-Length before reading anything, otherwise
 * (chunked uploads) as soon as the bytes read pass the limit. A body that fits is kept in memory
 * for `withBufferedBody`.
 */
export function bodyLimit(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // React Router's adapter never reads a GET or HEAD body: nothing to cap.
    if (req.method === "GET" || req.method === "HEAD") return next();
    const rule = bodyRuleFor(req.path, req.get("content-type"));
    if (!rule) return next();
    const declared = req.get("content-length");
    if (declared !== undefined && Number(declared) > rule.limit) return refuse(req, res, rule);
    readCapped(req, rule.limit).then(
      async (body) => {
        if (body === TOO_LARGE) return refuse(req, res, rule);
        const field = await nulField(body, req.get("content-type"));
        if (field !== null) {
          res.status(400);
          if (rule.json)
            res.json({ error: "invalid_request", error_description: nulMessage(field) });
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
  };
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
