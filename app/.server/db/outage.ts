import { data, type MiddlewareFunction } from "react-router";
import { checkReadiness } from "./client";
import { databaseHandle } from "./index";

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND"]);

/**
 * Whether an error means "the database is not reachable" rather than "this query is wrong":
 * socket errors, PostgreSQL's connection_exception class (08…) and shutdown codes (57P01-57P03),
 * and node-postgres's own connection messages. Drizzle wraps driver errors, so causes are followed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || /^08|^57P0[123]$/.test(code)))
      return true;
    if (
      typeof message === "string" &&
      /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable/i.test(
        message,
      )
    )
      return true;
    current = cause;
  }
  return false;
}

export const UNAVAILABLE_MESSAGE =
  "We cannot reach our database right now. Nothing you did caused this: please try again in a minute.";

/**
 * The root's middleware for outages: a request that failed (500) while the database does not
 * answer becomes a 503 "Service Unavailable" page with Retry-After, not an internal error. Pages
 * that do not need the database keep working; once it is back, so is everything else (the pool
 * reconnects by itself).
 */
export const serviceUnavailableOnOutage: MiddlewareFunction<Response> = async (
  { request },
  next,
) => {
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    // What a resource route's own middleware throws (the desktop API's rate limit reads the
    // database) reaches here thrown; a page's is already rendered as its error page.
    if (error instanceof Response || !(await databaseUnreachable())) throw error;
    return unavailableResource(request);
  }
  if (response.status !== 500 || !(await databaseUnreachable())) return response;
  if (!isPage(request, response)) return unavailableResource(request);
  throw data({ message: UNAVAILABLE_MESSAGE }, { status: 503, headers: UNAVAILABLE_HEADERS });
};

async function databaseUnreachable(): Promise<boolean> {
  const readiness = await checkReadiness(databaseHandle()).catch(() => null);
  return readiness?.database === "unreachable";
}

const UNAVAILABLE_HEADERS = { "Retry-After": "30", "Cache-Control": "no-store" };

/**
 * Whether the failed response is a page (its HTML, or its single-fetch `.data`), which the error
 * boundary renders again as the 503 page. Anything else is a resource route's answer to a program
 * (the desktop app, an updater, a feed reader): React Router gives a resource route nothing but a
 * plain 500 for what its middleware throws unless it is a Response (issue 32, point 3).
 */
function isPage(request: Request, response: Response): boolean {
  if (new URL(request.url).pathname.endsWith(".data")) return true;
  return response.headers.get("content-type")?.startsWith("text/html") ?? false;
}

/**
 * The 503 a resource route answers: JSON under /api (the OAuth-style error the desktop API speaks
 * everywhere else), plain text for feeds and files.
 */
function unavailableResource(request: Request): Response {
  if (new URL(request.url).pathname.startsWith("/api/"))
    return Response.json(
      { error: "service_unavailable", error_description: UNAVAILABLE_MESSAGE },
      { status: 503, headers: { ...UNAVAILABLE_HEADERS, Pragma: "no-cache" } },
    );
  return new Response(UNAVAILABLE_MESSAGE, {
    status: 503,
    headers: { ...UNAVAILABLE_HEADERS, "Content-Type": "text/plain; charset=utf-8" },
  });
}

/**
 * Outside `serviceUnavailableOnOutage`: the 503 page that middleware throws is rendered by the
 * error boundary, which keeps only the status, so the retry hint for clients is added here.
 */
export const retryAfterOnUnavailable: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  if (response.status !== 503 || response.headers.has("Retry-After")) return response;
  try {
    response.headers.set("Retry-After", "30");
    response.headers.set("Cache-Control", "no-store");
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("Retry-After", "30");
    copy.headers.set("Cache-Control", "no-store");
    return copy;
  }
};
