/**
 * The request pipeline: where every request enters, and the order of the doors that may answer
 * it. The finisher opens it first (server/finish.ts: its id, the security headers, and its one
 * log line and count when it is answered), then the first door that takes it answers:
 *
 * 1. the refusal of a target no door can read (a path with dot segments, or not a path);
 * 2. the public cache (server/public-cache.ts), from memory;
 * 3. a fast answer (server/fast-answers.ts), the code its route's loader runs;
 * 4. the express app (server/express-app.ts): its own addresses, the build's files, and React
 *    Router for everything else (its pages, API routes and 404s).
 *
 * A door only marks on the request's exchange that it answered; it adds nothing the finisher adds.
 */
import type http from "node:http";
import proxyAddr from "proxy-addr";
import type { ViteDevServer } from "vite";
import { env } from "~/.server/env";
import { publicContentGeneration } from "~/.server/http/public-content.server";
import type { Logger } from "~/.server/logger";
import { observeRequest } from "~/.server/metrics/metrics.server";
import { bodyRules, declaredLength, refuseAndLinger, refuseTooLarge } from "./body-limit";
import { type AppState, type BuildSource, createApp } from "./express-app";
import { createFastAnswers } from "./fast-answers";
import { createFinisher, type Exchange, exchangeOf, siteSecurityHeaders } from "./finish";
import { createPublicCache } from "./public-cache";
import { hasDotSegment, originForm, routeIdOf, routeRules, rulesOfBuild } from "./route-rules";

export interface PipelineParts {
  /** Vite's dev server, in development only: no public cache and no fast answers then. */
  vite?: ViteDevServer;
  state: AppState;
  build: BuildSource;
  log: Logger;
}

export interface Pipeline {
  /** The HTTP server's request handler. */
  serve(req: http.IncomingMessage, res: http.ServerResponse): void;
  /**
   * The HTTP server's `checkContinue` handler (`Expect: 100-continue`): a body over its cap is
   * refused before the client sends it (Node would otherwise answer 100 Continue itself and the
   * client would send it all).
   */
  checkContinue(req: http.IncomingMessage, res: http.ServerResponse): void;
}

export function createPipeline({ vite, state, build, log }: PipelineParts): Pipeline {
  const config = env();
  const rulesOf = rulesOfBuild(build);
  // A production build's routes are known once; Vite's change as routes are edited.
  const rules = typeof build === "function" ? undefined : routeRules(build);
  const bodies = bodyRules(build);
  const security = siteSecurityHeaders();
  // Vite's dev server serves changing code: no shared cache in development.
  const cache = vite
    ? undefined
    : createPublicCache({
        sharedHeaderNames: Object.keys(security.headers),
        generation: publicContentGeneration,
        buildId: __BUILD_ID__,
      });
  const app = createApp({ vite, state, build, rulesOf, bodyRules: bodies, cache });
  // The client's address as express gives it (`req.ip`), for the doors express never sees.
  const trust = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const clientIpOf = (req: http.IncomingMessage) => proxyAddr(req, trust);
  const finisher = createFinisher({
    security,
    log,
    clientIp: clientIpOf,
    closing: () => state.shuttingDown,
    routeOf: rules
      ? (pathname) => routeIdOf(rules, pathname)
      : (pathname) => rulesOf().then((current) => routeIdOf(current, pathname)),
    observe: observeRequest,
  });
  // The update feeds every installed app polls, answered before express (decision 0032). Vite's
  // dev server reloads routes: development takes the usual way.
  const fast =
    typeof build === "function" || !rules
      ? undefined
      : createFastAnswers(build, rules, {
          clientIp: clientIpOf,
          onError: (error) => log.error({ err: error }, "fast answer failed"),
          onAnswer: (res) => {
            exchangeOf(res).door = "fast";
          },
        });
  const noticeProxy = proxyNotice(config.TRUST_PROXY, log);

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

  return {
    serve,
    checkContinue(req, res) {
      const exchange = finisher.open(req, res);
      if (refuseUnusableTarget(req, res, exchange)) return;
      bodies.ruleFor(req).then(
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
    },
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
function proxyNotice(
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
