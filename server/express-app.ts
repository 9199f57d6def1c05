/**
 * The usual door: the express app that answers what the doors before it (server/pipeline.ts) do
 * not: the cross-site refusal, `/metrics`, `/healthz`, `/readyz`, `/version.json`, the payment
 * sandbox, the build's files, and everything else through React Router's request handler. Its
 * answers are finished like any other (server/finish.ts): this app only names the /metrics
 * series of what it answers itself and hands React Router the request's id, logger and CSP, all
 * read from the request's exchange (`exchangeOf(res)`).
 */
import http from "node:http";
import { COMPRESSION_THRESHOLD } from "./compression-threshold";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "./react-router-handler";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { CLIENT_IP_HEADER } from "~/.server/auth/client-ip";
import { paymentsConfig, SANDBOX_MOUNT } from "~/.server/billing/provider.server";
import { databaseHandle } from "~/.server/db";
import { checkReadiness } from "~/.server/db/client";
import { env } from "~/.server/env";
import { logger } from "~/.server/logger";
import { metricsAccess, metricsText } from "~/.server/metrics/metrics.server";
import { requestContext } from "~/.server/request-context";
import { bodyLimit, type BodyRules, withBufferedBody } from "./body-limit";
import { crossSiteVerdict } from "./cross-site";
import { countedRateLimitsOf } from "./fast-answers";
import { exchangeOf } from "./finish";
import type { PublicCache } from "./public-cache";
import { createRazorpaySandbox } from "./razorpay-sandbox";
import { requestPathname, type RouteRules } from "./route-rules";
import { assetFiles, otherBuildFiles } from "./static-files";

/** What the server's parts share while it runs. */
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
export type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

export interface AppParts {
  /** Vite's dev server, in development only: it serves the browser's files. */
  vite?: ViteDevServer;
  state: AppState;
  build: BuildSource;
  rulesOf: () => Promise<RouteRules>;
  bodyRules: BodyRules;
  /** The public cache records here what React Router answers (absent in development). */
  cache?: PublicCache;
}

/** The addresses answered here, before React Router, are counted under their own names. */
function named(name: string) {
  return (_req: Request, res: Response, next: NextFunction) => {
    exchangeOf(res).route = name;
    next();
  };
}

export function createApp({ vite, state, build, rulesOf, bodyRules, cache }: AppParts) {
  const config = env();
  const log = logger();
  const app = express();

  app.disable("x-powered-by");
  // false, a hop count or a list of trusted proxy addresses: req.ip comes from the socket unless
  // the peer is one of them, so a forged X-Forwarded-For cannot change a visitor's address.
  app.set("trust proxy", config.TRUST_PROXY);

  app.use((req: Request, _res: Response, next: NextFunction) => {
    // Every request, not only /api/auth: Better Auth reads this header wherever the server
    // passes request headers to it (desktop sign-in, account actions).
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "";
    next();
  });

  app.use(
    compression({
      threshold: COMPRESSION_THRESHOLD,
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
    exchangeOf(res).log.warn(
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
      webhookUrl: () => `${state.selfUrl ?? ""}/api/webhooks/razorpay`,
      publicUrl: () => `${config.SITE_URL}${SANDBOX_MOUNT}`,
      statePath: path.join(config.DATA_DIR, "razorpay-sandbox.json"),
      log: (message, details) => log.info({ sandbox: details }, message),
    });
    state.closeSandbox = sandbox.close;
    app.use(SANDBOX_MOUNT, named("sandbox"), sandbox.router);
  }

  if (vite) {
    app.use(vite.middlewares);
  } else {
    const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
    // Files are one series; what falls through them goes on to the routes.
    app.use(named("static"));
    app.use("/assets", assetFiles(clientDir));
    app.use(otherBuildFiles(clientDir));
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
  app.use(bodyLimit(bodyRules));
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
    if (status >= 500) exchangeOf(res).log.error({ err: error }, "unhandled server error");
    if (res.headersSent) return next(error);
    res
      .status(status)
      .type("text/plain")
      .send(status === 404 ? "Not Found" : http.STATUS_CODES[status]);
  });

  return app;
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
