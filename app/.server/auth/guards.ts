import { data, matchPath, redirect } from "react-router";
import { getSession, type Session } from "./session";

export class UnknownGuardError extends Error {
  override name = "UnknownGuardError";
}

interface GuardInput {
  session: Session | null;
  url: URL;
}

/** Where an anonymous visitor goes: the sign-in page, coming back to the same-origin path after. */
export function signInRedirect(url: URL): Response {
  const next = url.pathname + url.search;
  return redirect(`/auth?next=${encodeURIComponent(next)}`);
}

/** A guard returns nothing to admit the request, or throws the response that refuses it. */
export const guards = {
  auth({ session, url }: GuardInput): void {
    if (!session) throw signInRedirect(url);
  },
  admin({ session, url }: GuardInput): void {
    if (!session) throw signInRedirect(url);
    if (session.user.role !== "admin") {
      throw data({ message: "This page is for administrators." }, { status: 403 });
    }
  },
} as const;

export type GuardName = keyof typeof guards;

export interface GuardRule {
  /** A React Router path pattern; `/*` also matches the path itself. */
  path: string;
  guard: string;
}

/**
 * Which routes need which guard: the one table. /admin-fix-subscription is guarded although the
 * spec lists no middleware for it (docs/decisions/0005-guard-admin-fix-subscription.md).
 */
export const ROUTE_GUARDS: readonly GuardRule[] = [
  { path: "/account/*", guard: "auth" },
  { path: "/checkout/*", guard: "auth" },
  { path: "/billing/*", guard: "auth" },
  { path: "/invoices/*", guard: "auth" },
  { path: "/fix-subscription/*", guard: "auth" },
  { path: "/login-success", guard: "auth" },
  { path: "/admin/*", guard: "admin" },
  { path: "/admin-fix-subscription/*", guard: "admin" },
];

function isGuardName(name: string): name is GuardName {
  return Object.hasOwn(guards, name);
}

export interface CompiledRule {
  path: string;
  guard: GuardName;
}

/** Checks every guard name of a table; an unknown one is a programming error caught at start-up. */
export function compileGuardTable(table: readonly GuardRule[]): CompiledRule[] {
  return table.map((rule) => {
    if (!isGuardName(rule.guard)) {
      throw new UnknownGuardError(`Unknown route guard "${rule.guard}" on ${rule.path}`);
    }
    return { path: rule.path, guard: rule.guard };
  });
}

const compiled = compileGuardTable(ROUTE_GUARDS);

export function guardsFor(
  pathname: string,
  rules: readonly CompiledRule[] = compiled,
): GuardName[] {
  const names = new Set<GuardName>();
  for (const rule of rules) {
    if (matchPath({ path: rule.path, end: true }, pathname)) names.add(rule.guard);
  }
  return [...names];
}

/** The Cache-Control of anything private to one visitor: stored nowhere, not even by the browser. */
export const PRIVATE_NO_STORE = "private, no-store";

/**
 * Marks the response to a guarded path as never to be stored: the page, its `.data` request (React
 * Router hands the middleware the path without `.data`), and the sign-in redirect or 403 a guard
 * threw. A shared cache must not keep one user's account page, nor a redirect that depends on
 * whether a cookie was sent.
 */
export function keepPrivate(request: Request, response: Response): Response {
  if (guardsFor(new URL(request.url).pathname).length === 0) return response;
  try {
    response.headers.set("Cache-Control", PRIVATE_NO_STORE);
    return response;
  } catch {
    // Immutable headers (a Response passed on from fetch): answer with a copy.
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", PRIVATE_NO_STORE);
    return copy;
  }
}

/**
 * Runs the guards of a request's path. Returns the session (null when the path is public and
 * nobody is signed in) or throws the redirect / 403 response.
 */
export async function enforceGuards(request: Request): Promise<Session | null> {
  const url = new URL(request.url);
  const needed = guardsFor(url.pathname);
  if (needed.length === 0) return null;
  const session = await getSession(request);
  for (const name of needed) guards[name]({ session, url });
  return session;
}
