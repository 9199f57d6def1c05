/**
 * The cross-site check for state-changing requests (POST, PUT, PATCH, DELETE), before routing.
 *
 * A browser says where such a request comes from: `Origin` (every current browser, on every
 * POST), and `Sec-Fetch-Site`. One that comes from another site is refused. One that says
 * neither is not a browser's (or is a browser made not to say), so it is refused too (issue 53):
 * it used to pass, trusted to carry no cookie, and a cookie was all it needed. Clients that are
 * not browsers authenticate otherwise, on the addresses of `WITHOUT_ORIGIN`, the one list of
 * them. GET and HEAD change nothing, so the update feeds, /metrics and the downloads need no entry.
 */
import { SANDBOX_MOUNT } from "~/.server/billing/provider.server";

export interface OriginExemption {
  /** An exact path, or a prefix ending in "/" (a path under it). */
  path: string;
  /** "always": the address never reads a cookie; "bearer": only a request with a token. */
  when: "always" | "bearer";
  why: string;
}

/** Where a state-changing request may come without Origin or Sec-Fetch-Site, and why. */
export const WITHOUT_ORIGIN: readonly OriginExemption[] = [
  {
    path: "/api/desktop/",
    when: "always",
    why: "the desktop app: PKCE codes, refresh tokens and Bearer device tokens, never a cookie",
  },
  {
    path: "/api/functions/",
    when: "always",
    why: "Bearer tokens; the route counts a cookie only on a same-origin call (api/functions.ts)",
  },
  {
    path: "/api/webhooks/razorpay",
    when: "always",
    why: "Razorpay's servers, each message signed with the webhook secret",
  },
  {
    path: "/api/admin/releases",
    when: "bearer",
    why: "npm run release:publish with an admin API token (the admin pages' calls carry Origin)",
  },
  {
    path: "/api/admin/releases/",
    when: "bearer",
    why: "the same API's releases and their file uploads",
  },
  {
    path: `${SANDBOX_MOUNT}/v1/`,
    when: "always",
    why: "the payment sandbox's REST API, called by the site's billing code with its key (Basic)",
  },
  {
    path: `${SANDBOX_MOUNT}/control/`,
    when: "always",
    why: "the payment sandbox's controls (tests, the operator), with the sandbox's key (Basic)",
  },
];

/** Methods that change nothing; every other one (POST, PUT, PATCH, DELETE, …) is checked. */
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

function exempt(path: string, authorization: string | undefined): boolean {
  return WITHOUT_ORIGIN.some(
    (entry) =>
      (entry.path.endsWith("/") ? path.startsWith(entry.path) : path === entry.path) &&
      (entry.when === "always" || /^Bearer \S/.test(authorization ?? "")),
  );
}

export type CrossSiteVerdict = "allowed" | "cross-site" | "unstated";

export interface CrossSiteRequest {
  method: string;
  path: string;
  origin: string | undefined;
  fetchSite: string | undefined;
  authorization: string | undefined;
  /** `${protocol}://${host}` of this request: its own origin, allowed beside the trusted ones. */
  ownOrigin: string;
}

/** Whether a request may go on: "cross-site" and "unstated" are refused with 403. */
export function crossSiteVerdict(
  request: CrossSiteRequest,
  trustedOrigins: ReadonlySet<string>,
): CrossSiteVerdict {
  if (SAFE.has(request.method)) return "allowed";
  const { origin, fetchSite } = request;
  if (
    fetchSite === "cross-site" ||
    (origin !== undefined && !trustedOrigins.has(origin) && origin !== request.ownOrigin)
  )
    return "cross-site";
  if (
    origin === undefined &&
    fetchSite === undefined &&
    !exempt(request.path, request.authorization)
  )
    return "unstated";
  return "allowed";
}
