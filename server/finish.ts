/**
 * The finisher: every answer this server gives, whichever door gives it (the refusal of an
 * unusable target, the public cache, a fast answer, express, React Router), leaves with what this
 * module adds and nothing else adds: the request id (`X-Request-Id`), the security headers, one
 * access-log line and one count in /metrics. Each door used to add them itself, and they drifted
 * apart (issue 54: cache hits logged no request id, the dot-segment 400 carried none of them).
 *
 * `open` runs first for every request, before any door looks at it (server/pipeline.ts): the
 * headers are set on the response at once, so whatever a door writes later (`writeHead` with its
 * own headers, express's `res.set`) is merged with them, and a door's own value for the same name
 * (a page's CSP, `Connection: close` of a refusal) wins. The log line and the count are written
 * when the response finishes, once, from what the door left on the exchange.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { HTTP_AUTH_ENDPOINTS } from "~/.server/auth/http-endpoints";
import { env } from "~/.server/env";
import type { Logger } from "~/.server/logger";
import { contentSecurityPolicy, securityHeaders } from "./security-headers";

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A valid X-Request-Id from the client (a proxy's), else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Paths that carry a secret in a segment, the access log shows with the secret blanked: derived
 * from the auth endpoints open over HTTP (a `:token` parameter), so a new one is covered without a
 * second list of paths here.
 */
const SECRET_PATH_SEGMENTS = [...HTTP_AUTH_ENDPOINTS]
  .filter((endpoint) => endpoint.includes("/:token"))
  .map((endpoint) => {
    const prefix = `/api/auth${endpoint.slice(0, endpoint.indexOf(":token"))}`;
    return new RegExp(`^(${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})[^/]+`);
  });

export function loggablePath(path: string): string {
  for (const pattern of SECRET_PATH_SEGMENTS) {
    if (pattern.test(path)) return path.replace(pattern, "$1[redacted]");
  }
  return path;
}

export interface SiteSecurity {
  /** The headers every response carries, but the CSP. */
  headers: Record<string, string>;
  /** The CSP of anything that is not an HTML page (no inline script allowed). */
  basePolicy: string;
  /** The CSP of an HTML page whose inline scripts have these `sha256-…` sources. */
  pagePolicy(scriptHashes: readonly string[]): string;
}

/**
 * The security headers of this site's configuration, computed once. The Content-Security-Policy
 * is apart: an HTML page's lists its inline scripts' hashes (app/entry.server.tsx); anything else
 * gets the base policy.
 */
export function siteSecurityHeaders(): SiteSecurity {
  const config = env();
  const options = {
    https: config.SITE_URL.startsWith("https:"),
    development: config.NODE_ENV === "development",
    googleAnalytics: Boolean(config.GA_MEASUREMENT_ID),
    razorpayCheckout: config.PAYMENTS_PROVIDER === "razorpay",
  };
  const { "Content-Security-Policy": basePolicy = "", ...headers } = securityHeaders(options);
  return {
    headers,
    basePolicy,
    pagePolicy: (scriptHashes) => contentSecurityPolicy({ ...options, scriptHashes }),
  };
}

/**
 * Which door answered. The log line says so in the words its readers already know: a cache hit
 * `cache: "hit"`, a fast answer `answer: "fast"`, a refusal before any door `answer: "refused"`;
 * express and React Router (the usual way) add nothing.
 */
export type Door = "refusal" | "cache" | "fast" | "app";

const DOOR_MARK: Record<Door, Readonly<Record<string, string>>> = {
  refusal: { answer: "refused" },
  cache: { cache: "hit" },
  fast: { answer: "fast" },
  app: {},
};

export interface FinisherOptions {
  security: SiteSecurity;
  log: Logger;
  /** The client's address as express's `req.ip` gives it (TRUST_PROXY applied). */
  clientIp(req: IncomingMessage): string;
  /** Keep-alive connections must not outlive a shutdown: answers say `Connection: close`. */
  closing(): boolean;
  /** The route id a request path is answered by (server/route-rules.ts `routeIdOf`). */
  routeOf(pathname: string): string | Promise<string>;
  /** Counts one answered request in /metrics (app/.server/metrics `observeRequest`). */
  observe(route: string, method: string, status: number, seconds: number): void;
}

export interface Finisher {
  /**
   * The request's exchange, opened on its first call (with its id, its headers and its log line
   * and count when the response finishes), the same one on any later call.
   */
  open(req: IncomingMessage, res: ServerResponse): Exchange;
}

const exchanges = new WeakMap<ServerResponse, Exchange>();

/** The exchange `open` made for this response (express middleware read theirs here). */
export function exchangeOf(res: ServerResponse): Exchange {
  const exchange = exchanges.get(res);
  if (!exchange) throw new Error("a response outside the pipeline: it has no exchange");
  return exchange;
}

/** One request and its answer, as the finisher sees them. */
export class Exchange {
  readonly requestId: string;
  /** Which door answered (`app` until another says it did). */
  door: Door = "app";
  /**
   * The /metrics series when it is not the route id of the path: a fixed name for what express
   * answers before React Router (`static`, `healthz`…) or for a target refused before routing.
   */
  route: string | undefined;
  private readonly started = process.hrtime.bigint();
  private childLog: Logger | undefined;

  constructor(
    private readonly options: FinisherOptions,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.requestId = requestIdOf(req);
    // Set now, before any door writes: what a door sets later on the same names wins.
    res.setHeader("X-Request-Id", this.requestId);
    for (const [name, value] of Object.entries(options.security.headers))
      res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", options.security.basePolicy);
    if (options.closing()) res.setHeader("Connection", "close");
    res.once("finish", () => this.finish());
  }

  /** This request's logger (its id bound), for what is logged about it besides the request line. */
  get log(): Logger {
    this.childLog ??= this.options.log.child({ reqId: this.requestId });
    return this.childLog;
  }

  /** The CSP of an HTML page with these inline scripts (React Router's pages set their own). */
  pagePolicy(scriptHashes: readonly string[]): string {
    return this.options.security.pagePolicy(scriptHashes);
  }

  /**
   * For an answer that brings its own CSP by appending headers (React Router's, through its
   * express adapter): the base policy set at `open` would make two policies, which browsers
   * intersect. It is taken off and put back just before the head goes out, unless the answer set
   * one (an HTML page, with its scripts' hashes).
   */
  letAnswerSetPolicy(): void {
    const { res } = this;
    const { basePolicy } = this.options.security;
    res.removeHeader("Content-Security-Policy");
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
      if (!this.hasHeader("Content-Security-Policy"))
        this.setHeader("Content-Security-Policy", basePolicy);
      return writeHead.apply(this, args);
    } as typeof writeHead;
  }

  /** One line and one count, once the answer is complete (an abandoned one gets neither). */
  private finish(): void {
    const { req, res, options } = this;
    const ms = Number(process.hrtime.bigint() - this.started) / 1e6;
    const method = req.method ?? "GET";
    const pathname = pathOf(req);
    if (options.log.isLevelEnabled("info"))
      // The path only: query strings can carry one-time tokens and must never reach the logs.
      options.log.info(
        {
          reqId: this.requestId,
          method,
          path: loggablePath(pathname),
          status: res.statusCode,
          ms,
          ip: options.clientIp(req),
          ...DOOR_MARK[this.door],
        },
        "request",
      );
    // By route id: a page's every address is one series (/metrics, decision 0048).
    const status = res.statusCode;
    const route = this.route ?? options.routeOf(pathname);
    if (typeof route === "string") options.observe(route, method, status, ms / 1000);
    else
      void route.then(
        (id) => options.observe(id, method, status, ms / 1000),
        () => options.observe("other", method, status, ms / 1000),
      );
  }
}

/**
 * The path asked for, as sent (express's `originalUrl`: a router mounted on `/assets` cuts
 * `req.url` while it serves), without the query or a fragment.
 */
function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? "/";
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

export function createFinisher(options: FinisherOptions): Finisher {
  return {
    open(req, res) {
      let exchange = exchanges.get(res);
      if (!exchange) {
        exchange = new Exchange(options, req, res);
        exchanges.set(res, exchange);
      }
      return exchange;
    },
  };
}
