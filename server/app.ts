/**
 * The custom Node server: one express app around React Router's request handler.
 * Bundled with the routes into build/server/index.js (see vite.config.ts) and started by
 * server.js; in development server.js loads it through Vite instead.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import expressStaticGzip from "express-static-gzip";
import type { DestinationStream } from "pino";
import proxyAddr from "proxy-addr";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { env, configureEnv } from "~/.server/env";
import { checkReadiness, type DatabaseHandle } from "~/.server/db/client";
import { closeDatabase, databaseHandle, initDatabase } from "~/.server/db";
import { closeCounters } from "~/.server/releases/counters.server";
import { ensureDemoRelease } from "~/.server/releases/demo.server";
import { backfillFileHashes } from "~/.server/releases/manage.server";
import { sweepReleaseUploads } from "~/.server/releases/storage/index.server";
import { sealPlaintextKeys } from "~/.server/desktop/license.server";
import { paymentsConfig, SANDBOX_MOUNT, setSelfUrl } from "~/.server/billing/provider.server";
import { startJobWorker, stopJobWorker } from "~/.server/jobs";
import { logger, type Logger, configureLogDestination } from "~/.server/logger";
import { CLIENT_IP_HEADER } from "~/.server/auth/client-ip";
import { requestContext } from "~/.server/request-context";
import { metricsAccess, metricsText, observeRequest } from "~/.server/metrics/metrics.server";
import {
  followPublicContentChanges,
  publicContentGeneration,
} from "~/.server/http/public-content.server";
import {
  bodyLimit,
  type BodyRules,
  bodyRules,
  declaredLength,
  refuseAndLinger,
  refuseTooLarge,
  withBufferedBody,
} from "./body-limit";
import {
  hasDotSegment,
  originForm,
  requestPathname,
  type RouteRules,
  routeRules,
  routeIdOf,
  rulesOfBuild,
} from "./route-rules";
import { countedRateLimitsOf, createFastAnswers } from "./fast-answers";
import { createRazorpaySandbox } from "./razorpay-sandbox";
import { crossSiteVerdict } from "./cross-site";
import { type Primary, startWorkers } from "./cluster";
import { createPublicCache, type PublicCache } from "./public-cache";
import { createFinisher, type Exchange, exchangeOf, siteSecurityHeaders } from "./finish";

declare module "express-serve-static-core" {
  interface Locals {
    requestId: string;
    log: Logger;
  }
}

export interface StartOptions {
  /** Vite's dev server, in development only. */
  vite?: ViteDevServer;
  /**
   * The environment instead of process.env, and where log lines go instead of stdout: the
   * in-process test harness (tests/support/site.ts) runs several sites in one process, each from
   * its own copy of this bundle. server.js passes neither.
   */
  env?: Record<string, string | undefined>;
  logDestination?: DestinationStream;
}

export interface RunningServer {
  server: http.Server;
  /** This server's database (the test harness reads its job queue). */
  database: DatabaseHandle;
  shutdown(reason: string): Promise<void>;
}

export interface AppState {
  shuttingDown: boolean;
  /** This server's own loopback URL, once it listens. */
  selfUrl?: string;
  /** Stops the payment sandbox's webhook deliveries on shutdown. */
  closeSandbox?: () => Promise<void>;
}

/**
 * The server build React Router serves. In production it is resolved once: given a function,
 * React Router re-derives its route tables and static handler on every request (about a tenth of
 * a signed-in page's CPU); in development the function lets Vite serve changed routes.
 */
type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

async function serverBuild(options: StartOptions): Promise<BuildSource> {
  const load = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
  return options.vite ? load : await load();
}

export function createApp(
  options: StartOptions,
  state: AppState,
  build: BuildSource,
  rules: BodyRules,
  cache?: PublicCache,
) {
  const config = env();
  const log = logger();
  const app = express();

  app.disable("x-powered-by");
  // false, a hop count or a list of trusted proxy addresses: req.ip comes from the socket unless
  // the peer is one of them, so a forged X-Forwarded-For cannot change a visitor's address.
  app.set("trust proxy", config.TRUST_PROXY);

  const rulesOf = rulesOfBuild(build);
  app.use((req: Request, res: Response, next: NextFunction) => {
    // The id and logger the finisher opened this request with, for the middleware and routes.
    const exchange = exchangeOf(res);
    res.locals.requestId = exchange.requestId;
    res.locals.log = exchange.log;
    // Every request, not only /api/auth: Better Auth reads this header wherever the server
    // passes request headers to it (desktop sign-in, account actions).
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "";
    next();
  });

  app.use(
    compression({
      // Installers are already compressed, and byte ranges must refer to the file itself.
      filter: (req, res) =>
        !String(res.getHeader("Content-Type") ?? "").startsWith("application/octet-stream") &&
        compression.filter(req, res),
    }),
  );

  // CSRF (server/cross-site.ts): a state-changing request from another site is refused, and so
  // is one that says neither Origin nor Sec-Fetch-Site, but on the addresses of clients that
  // authenticate otherwise (WITHOUT_ORIGIN: the desktop API, webhooks, tokens).
  const trustedOrigins = new Set(config.TRUSTED_ORIGINS);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const origin = req.get("origin");
    const fetchSite = req.get("sec-fetch-site");
    const verdict = crossSiteVerdict(
      {
        method: req.method,
        path: req.path,
        origin,
        fetchSite,
        authorization: req.get("authorization"),
        ownOrigin: `${req.protocol}://${req.get("host")}`,
      },
      trustedOrigins,
    );
    if (verdict === "allowed") return next();
    res.locals.log.warn(
      { origin, fetchSite, path: req.path, trusted: config.TRUSTED_ORIGINS, verdict },
      verdict === "cross-site"
        ? "cross-site request refused: if people open the site at this origin, set SITE_URL to it"
        : "request without Origin or Sec-Fetch-Site refused",
    );
    const message =
      verdict === "cross-site"
        ? "This request came from another address than the site's own and was refused. If you opened the site at that address, ask whoever runs it to set SITE_URL to it."
        : "This request did not say which site it came from (no Origin or Sec-Fetch-Site header) and was refused. Browsers say so; a script should call the API with its token.";
    // The sign-in forms show an API's message; the code lets them say it in their own words.
    if (req.path.startsWith("/api/"))
      res
        .status(403)
        .json({ code: verdict === "cross-site" ? "INVALID_ORIGIN" : "MISSING_ORIGIN", message });
    else res.status(403).type("text/plain").send(message);
  });

  // The addresses answered here, before React Router, are counted under their own names.
  const named = (name: string) => (_req: Request, res: Response, next: NextFunction) => {
    exchangeOf(res).route = name;
    next();
  };
  app.get("/metrics", named("metrics"), async (req, res, next) => {
    const access = metricsAccess(req.get("authorization"), req.ip ?? "");
    // Not configured: no such address (the request goes on to the site's 404, counted as that).
    if (access === "off") {
      exchangeOf(res).route = undefined;
      return next();
    }
    res.set("Cache-Control", "no-store");
    if (access === "refused") {
      res.set("WWW-Authenticate", 'Bearer realm="metrics"').status(401).type("text/plain");
      res.send("Send Authorization: Bearer <METRICS_TOKEN>, or scrape from an allowed address.");
      return;
    }
    try {
      const { contentType, body } = await metricsText();
      res.type(contentType).send(body);
    } catch (error) {
      next(error);
    }
  });

  app.get("/healthz", named("healthz"), (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });

  app.get("/readyz", named("readyz"), async (_req, res, next) => {
    try {
      const readiness = state.shuttingDown
        ? { ok: false, shuttingDown: true }
        : await checkReadiness(databaseHandle());
      res
        .set("Cache-Control", "no-store")
        .status(readiness.ok ? 200 : 503)
        .json(readiness);
    } catch (error) {
      next(error);
    }
  });

  app.get("/version.json", named("version"), (_req, res) => {
    res.set("Cache-Control", "no-store").json({ buildId: __BUILD_ID__, builtAt: __BUILT_AT__ });
  });

  if (config.PAYMENTS_PROVIDER === "sandbox") {
    // The Razorpay-compatible sandbox: the billing code reaches it over HTTP like api.razorpay.com.
    const payments = paymentsConfig();
    const sandbox = createRazorpaySandbox({
      keyId: payments.keyId,
      keySecret: payments.keySecret,
      webhookSecret: payments.webhookSecret,
      webhookUrl: () => `${selfUrlOf(state)}/api/webhooks/razorpay`,
      publicUrl: () => `${config.SITE_URL}${SANDBOX_MOUNT}`,
      statePath: path.join(config.DATA_DIR, "razorpay-sandbox.json"),
      log: (message, details) => log.info({ sandbox: details }, message),
    });
    state.closeSandbox = sandbox.close;
    app.use(SANDBOX_MOUNT, named("sandbox"), sandbox.router);
  }

  if (options.vite) {
    app.use(options.vite.middlewares);
  } else {
    const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
    // Vite fingerprints every file under /assets, so a name never changes content.
    // The brotli and gzip copies written at build time (scripts/compress-assets.ts) are sent as
    // they are; the compression middleware leaves a response that already has an encoding alone.
    // Files are one series; what falls through them goes on to the routes.
    app.use(named("static"));
    app.use(
      "/assets",
      expressStaticGzip(path.join(clientDir, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gz"],
        index: false,
        serveStatic: { immutable: true, maxAge: "1y", fallthrough: false, index: false },
      }),
    );
    app.use(staticFiles(clientDir, express.static(clientDir, { maxAge: "1h", index: false })));
    app.use((_req: Request, res: Response, next: NextFunction) => {
      exchangeOf(res).route = undefined;
      next();
    });
  }

  const handleRequest = createRequestHandler({
    build,
    mode: config.NODE_ENV === "production" ? "production" : "development",
    getLoadContext(req, res) {
      const exchange = exchangeOf(res);
      const context = new RouterContextProvider();
      context.set(requestContext, {
        requestId: exchange.requestId,
        contentSecurityPolicy: (scriptHashes) => exchange.pagePolicy(scriptHashes),
        clientIp: req.ip ?? req.socket.remoteAddress ?? "",
        log: exchange.log,
        // `req` is the body-buffering proxy (server/body-limit.ts): the request itself is res.req.
        countedRateLimits: countedRateLimitsOf(res.req),
      });
      return context;
    },
  });
  app.use(canonicalCase(rulesOf));
  app.use(noDataUrlForResources(rulesOf));
  // Every body React Router reads is capped (server/body-limit.ts). Nothing above reads bodies
  // except the payment sandbox, whose express.json caps its own at 64 KB.
  app.use(bodyLimit(rules));
  // React Router appends its own headers: an HTML page brings the CSP with its scripts' hashes,
  // which must not be intersected with the base policy the finisher set.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    exchangeOf(res).letAnswerSetPolicy();
    next();
  });
  if (cache) app.use(cache.capture);
  app.all("/{*path}", (req, res, next) => handleRequest(withBufferedBody(req), res, next));

  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const status =
      typeof error === "object" &&
      error !== null &&
      "status" in error &&
      typeof error.status === "number"
        ? error.status
        : 500;
    if (status >= 500) res.locals.log.error({ err: error }, "unhandled server error");
    if (res.headersSent) return next(error);
    res
      .status(status)
      .type("text/plain")
      .send(status === 404 ? "Not Found" : http.STATUS_CODES[status]);
  });

  return app;
}

/**
 * The build's other static files (icons, robots, social images), served by `serveStatic` only for
 * a path that names one of them (or a folder of them, which it redirects): every other request
 * would cost a failed `stat` of the disk before it reaches React Router, about 7 % of the CPU of
 * an API call (decision 0032). The build does not change while the server runs. The path is
 * looked up as `send` resolves it: decoded, repeated slashes folded.
 */
function staticFiles(root: string, serveStatic: RequestHandler): RequestHandler {
  const present = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const name = `${prefix}/${entry.name}`;
      present.add(name);
      if (entry.isDirectory()) walk(path.join(dir, entry.name), name);
    }
  };
  walk(root, "");
  return (req, res, next) => {
    let pathname: string;
    try {
      pathname = path.posix.normalize(decodeURIComponent(req.path));
    } catch {
      return next();
    }
    if (!present.has(pathname)) return next();
    serveStatic(req, res, next);
  };
}

/**
 * React Router matches paths whatever their case, but what reads the path after it does not (the
 * admin area's own chrome, active links, canonical URLs, analytics): a page asked for with its
 * fixed segments in another case (`/Admin/Users`) is sent to its one spelling before any of it
 * runs. Only reads of pages: a form post is answered where it was sent, and resource routes (API,
 * feeds, files) serve programs that need not follow redirects.
 */
function canonicalCase(rulesOf: () => Promise<RouteRules>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // Every path in app/routes.ts is lower-case (server/route-rules.test.ts holds it so): a path
    // with no capital and no escape is already spelt right, and the hot paths (update feeds,
    // the desktop API) skip the route matching below.
    if (!/[A-Z%]/.test(req.path)) return next();
    try {
      const canonical = (await rulesOf()).canonicalPagePath(requestPathname(req.originalUrl));
      if (canonical === null) return next();
      const query = req.originalUrl.indexOf("?");
      res.redirect(301, query === -1 ? canonical : canonical + req.originalUrl.slice(query));
    } catch (error) {
      next(error);
    }
  };
}

/**
 * A resource route (the API, feeds, files) has no `.data` URL: React Router would answer
 * `/api/desktop/me.data` with the loader's data but without the headers the route sets (its
 * `Cache-Control: no-store`), so a user's licence could sit in a cache (issue 32, point 4).
 * Decided once for every resource route, whatever the method: 404, before any of it runs.
 */
function noDataUrlForResources(rulesOf: () => Promise<RouteRules>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.path.endsWith(".data")) return next();
    try {
      if (!(await rulesOf()).isResourceData(requestPathname(req.originalUrl))) return next();
      res.status(404).set("Cache-Control", "no-store");
      if (req.path.toLowerCase().startsWith("/api/"))
        res.json({ error: "not_found", error_description: "no such resource" });
      else res.type("text/plain").send("Not found");
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The request target, decided before anything looks at it. An absolute-form target
 * (`GET http://host/path`) is read as its path, with its authority as the Host (issue 32, point
 * 5: it was a 500); any other form than a path is a 400. A path with dot segments is a 400 too:
 * the cache, the body caps and the logs would read it as spelt, React Router as resolved (issue
 * 25: a webhook prefix followed by `/../../desktop/token` reached the desktop API uncapped). Its
 * /metrics series is `refused`: it never reaches a route.
 */
function refuseUnusableTarget(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  exchange: Exchange,
): boolean {
  const origin = originForm(req.url ?? "/");
  if (origin) {
    req.url = origin.target;
    if (origin.host) req.headers.host = origin.host;
    if (!hasDotSegment(origin.target)) return false;
  }
  exchange.door = "refusal";
  exchange.route = "refused";
  refuseAndLinger(
    req,
    res,
    {
      status: 400,
      contentType: "text/plain; charset=utf-8",
      body: origin
        ? "Bad request: the path has dot segments (. or ..). Ask for the resolved path."
        : "Bad request: the request target must be a path (/…) or an http(s) URL.",
    },
    req.headers.expect !== undefined,
  );
  return true;
}

/**
 * Behind a proxy without TRUST_PROXY, every visitor has the proxy's address: one person's failed
 * sign-ins lock everyone out, and rate limits count the whole site as one client. Said once, at
 * the first request that shows a proxy (X-Forwarded-For), with what to set.
 */
export function proxyNotice(
  trustProxy: unknown,
  log: Pick<Logger, "warn">,
): (req: http.IncomingMessage) => void {
  let said = trustProxy !== false;
  return (req) => {
    if (said || req.headers["x-forwarded-for"] === undefined) return;
    said = true;
    log.warn(
      { peer: req.socket.remoteAddress, forwardedFor: "present" },
      "requests arrive through a proxy (X-Forwarded-For) but TRUST_PROXY is not set: every visitor shares the proxy's address, so sign-in lockouts and rate limits apply to all of them at once. Set TRUST_PROXY to the proxy's address (e.g. TRUST_PROXY=10.0.0.2 or loopback) or its hop count (TRUST_PROXY=1)",
    );
  };
}

function selfUrlOf(state: AppState): string {
  return state.selfUrl ?? "";
}

/**
 * How many server processes to run (WEB_CONCURRENCY, validated with the rest of the environment):
 * server.js forks that many workers through `startPrimary` when it is more than one.
 */
export function serverProcesses(options: StartOptions = {}): number {
  return options.vite ? 1 : env().WEB_CONCURRENCY;
}

/** The primary of several server processes (server/cluster.ts): it forks, watches and stops them. */
export function startPrimary(): Promise<Primary> {
  return startWorkers(env().WEB_CONCURRENCY, logger());
}

/** Opens the database, applies migrations, then listens; resolves once the port is bound. */
export async function start(options: StartOptions = {}): Promise<RunningServer> {
  if (options.env) configureEnv(options.env);
  if (options.logDestination) configureLogDestination(options.logDestination);
  const config = env();
  const log = logger();
  const handle = await initDatabase();
  log.info({ engine: handle.engine, location: handle.location }, "database ready");
  if (handle.engine === "pglite") await ensureDemoRelease();
  const sealed = await sealPlaintextKeys();
  if (sealed > 0) log.info({ keys: sealed }, "encrypted signing keys stored in plain text");
  const hashed = await backfillFileHashes();
  if (hashed > 0) log.info({ files: hashed }, "recorded the SHA-512 of earlier release files");
  const swept = await sweepReleaseUploads();
  if (swept > 0) log.info({ files: swept }, "removed the files of uploads that never finished");

  // Releases published by another instance, a worker beside this one or the CLI show at once.
  const unfollow = await followPublicContentChanges(handle);

  const state: AppState = { shuttingDown: false };
  const build = await serverBuild(options);
  // A production build's routes are known once; Vite's change as routes are edited.
  const served = typeof build === "function" ? undefined : routeRules(build);
  const rulesOf = rulesOfBuild(build);
  const security = siteSecurityHeaders();
  // Vite's dev server serves changing code: no shared cache in development.
  const cache = options.vite
    ? undefined
    : createPublicCache({
        sharedHeaderNames: Object.keys(security.headers),
        generation: publicContentGeneration,
        buildId: __BUILD_ID__,
      });
  const rules = bodyRules(build);
  const app = createApp(options, state, build, rules, cache);
  // The client's address as express gives it (`req.ip`), for the doors express never sees.
  const trust = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const clientIpOf = (req: http.IncomingMessage) => proxyAddr(req, trust);
  // Every answer, whichever door gives it, is finished here (server/finish.ts).
  const finisher = createFinisher({
    security,
    log,
    clientIp: clientIpOf,
    closing: () => state.shuttingDown,
    routeOf: served
      ? (pathname) => routeIdOf(served, pathname)
      : (pathname) => rulesOf().then((current) => routeIdOf(current, pathname)),
    observe: observeRequest,
  });
  const noticeProxy = proxyNotice(config.TRUST_PROXY, log);
  // The update feeds every installed app polls, answered before express (decision 0032). Vite's
  // dev server reloads routes: development takes the usual way.
  const fast =
    typeof build === "function" || !served
      ? undefined
      : createFastAnswers(build, served, {
          clientIp: clientIpOf,
          onError: (error) => log.error({ err: error }, "fast answer failed"),
          onAnswer: (res) => {
            exchangeOf(res).door = "fast";
          },
        });
  const serve = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const exchange = finisher.open(req, res);
    noticeProxy(req);
    if (refuseUnusableTarget(req, res, exchange)) return;
    if (cache?.serve(req, res)) {
      // Written already; the line and the count wait for the response to finish.
      exchange.door = "cache";
      return;
    }
    if (fast?.serve(req, res, () => app(req, res))) return;
    app(req, res);
  };
  const server = http.createServer(serve);
  // `Expect: 100-continue`: a body over its cap is refused before the client sends it (Node would
  // otherwise answer 100 Continue itself and the client would send it all).
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const exchange = finisher.open(req, res);
    if (refuseUnusableTarget(req, res, exchange)) return;
    rules.ruleFor(req).then(
      (rule) => {
        if (rule && declaredLength(req) > rule.limit) {
          exchange.door = "refusal";
          return refuseTooLarge(req, res, rule, true);
        }
        res.writeContinue();
        serve(req, res);
      },
      (error: unknown) => {
        exchange.log.error({ err: error }, "body rule lookup failed");
        res.writeHead(500, { Connection: "close" }).end();
      },
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.PORT, config.HOST, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    // The port is taken: give back what start-up opened (the embedded database's lock above all)
    // before the caller exits or tries another port.
    await Promise.all([state.closeSandbox?.(), unfollow(), closeCounters()]);
    await closeDatabase();
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const loopback =
    config.HOST === "0.0.0.0" || config.HOST === "::"
      ? "127.0.0.1"
      : config.HOST.includes(":")
        ? `[${config.HOST}]`
        : config.HOST;
  state.selfUrl = `http://${loopback}:${port}`;
  setSelfUrl(state.selfUrl);
  if (config.JOBS_WORKER) startJobWorker(log);
  // The address to open is SITE_URL, not the socket's: sign-in cookies and mailed links belong
  // to SITE_URL's origin, so a newcomer who opened 127.0.0.1 would land signed out on localhost.
  log.info(
    { host: config.HOST, port, siteUrl: config.SITE_URL, buildId: __BUILD_ID__ },
    `listening on http://${config.HOST}:${port}; open ${config.SITE_URL}`,
  );

  let closing: Promise<void> | undefined;
  const shutdown = (reason: string) => {
    closing ??= (async () => {
      state.shuttingDown = true;
      log.info({ reason }, "shutting down: no new connections, finishing in-flight requests");
      const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
      const force = setTimeout(() => {
        log.warn("shutdown timeout reached: closing remaining connections");
        server.closeAllConnections();
      }, config.SHUTDOWN_TIMEOUT_MS);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      clearInterval(idleSweep);
      clearTimeout(force);
      // Counts are written once no request is left to add to them, before the database closes.
      await Promise.all([stopJobWorker(), state.closeSandbox?.(), unfollow(), closeCounters()]);
      await closeDatabase();
      log.info("stopped");
    })();
    return closing;
  };

  return { server, database: handle, shutdown };
}
