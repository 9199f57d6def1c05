import {
  createContext,
  data,
  redirect,
  type MiddlewareFunction,
  type RouterContextProvider,
} from "react-router";
import { ADMIN_STEP_UP_REQUIRED_MESSAGE } from "../account/sensitive-rules";
import { readSessionAndAccountState } from "../account/account-state.server";
import { stepUpPending } from "../account/session-origin.server";
import { getSession, isAdmin, sessionContext, type Session } from "./session";

export class UnknownGuardError extends Error {
  override name = "UnknownGuardError";
}

interface GuardInput {
  session: Session | null;
  url: URL;
}

/** The Cache-Control of anything private to one visitor: stored nowhere, not even by the browser. */
export const PRIVATE_NO_STORE = "private, no-store";

/** Where an anonymous visitor goes: the sign-in page, coming back to the same-origin path after. */
export function signInRedirect(url: URL): Response {
  const next = url.pathname + url.search;
  return redirect(`/auth?next=${encodeURIComponent(next)}`, {
    headers: { "Cache-Control": PRIVATE_NO_STORE },
  });
}

/** Anyone signed in. */
function signedIn({ session, url }: GuardInput): void {
  if (!session) throw signInRedirect(url);
}

/** A guard returns nothing to admit the request, or throws the response that refuses it. */
export const guards = {
  auth: signedIn,
  /** The account area: the same rule; its session is read with the account state (0035). */
  account: signedIn,
  admin({ session, url }: GuardInput): void {
    if (!session) throw signInRedirect(url);
    if (!isAdmin(session)) {
      throw data(
        { message: "This page is for administrators." },
        { status: 403, headers: { "Cache-Control": PRIVATE_NO_STORE } },
      );
    }
  },
} as const;

export type GuardName = keyof typeof guards;

/** Methods that only read: everything else is an action that changes something. */
export function isReadOnlyMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "OPTIONS";
}

/**
 * Every admin action (roles, refunds, grants, replays, publishing tokens, releases) from a browser
 * opened from the desktop app waits for "Confirm it's you", as sensitive account actions do
 * (decision 0018): a stolen device token must not carry admin power. Reading stays open.
 */
export async function requireAdminStepUp(session: Session, method: string): Promise<void> {
  if (isReadOnlyMethod(method)) return;
  if (await stepUpPending(session.id)) {
    throw data(
      { message: ADMIN_STEP_UP_REQUIRED_MESSAGE },
      { status: 403, headers: { "Cache-Control": PRIVATE_NO_STORE } },
    );
  }
}

/**
 * How a guard reads the session when not with `getSession` alone: the account area's pages all
 * show the account state, read in the same statement (decision 0035).
 */
const sessionReaders: Partial<
  Record<
    GuardName,
    (request: Request, context: Readonly<RouterContextProvider>) => Promise<Session | null>
  >
> = {
  account: readSessionAndAccountState,
};

/** What a guard checks beyond its rule, for requests that change something. */
const actionChecks: Partial<Record<GuardName, typeof requireAdminStepUp>> = {
  admin: requireAdminStepUp,
};

export const GUARD_NAMES = Object.keys(guards) as GuardName[];

/** Checks a guard name; an unknown one is a programming error, caught when the module loads. */
export function assertGuardName(name: string): GuardName {
  if (!Object.hasOwn(guards, name)) throw new UnknownGuardError(`Unknown route guard "${name}"`);
  return name as GuardName;
}

/**
 * Marks a response as never to be stored: a shared cache must not keep one user's account page
 * (or its `.data`), nor a redirect that depends on whether a cookie was sent.
 */
export function keepPrivate(response: Response): Response {
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

/** Set by a guard before it decides: the response, whatever it is, is private (see `markPrivate`). */
const guardedContext = createContext<boolean>(false);

/** Whether a guard ran for this request: its document is private to the signed-in visitor. */
export function isGuarded(context: Readonly<RouterContextProvider>): boolean {
  return context.get(guardedContext);
}

/**
 * The root's outermost middleware: marks every response of a guarded route private, no-store,
 * the guard's own refusals included (a 403 thrown in middleware is rendered by the root's error
 * boundary, so only the root sees the final response).
 */
export const markPrivate: MiddlewareFunction<Response> = async ({ context }, next) => {
  const response = await next();
  return context.get(guardedContext) ? keepPrivate(response) : response;
};

/**
 * The middleware of a guarded layout route (app/routes/guards/<name>.tsx). React Router runs it for
 * every route nested under that layout, documents and `.data` requests alike, after matching the
 * decoded path: nesting decides what is protected, never a second list of path strings. The
 * session it reads is the one loaders get from `requireSession(context)`.
 */
export function guardMiddleware(name: string): MiddlewareFunction<Response> {
  const guardName = assertGuardName(name);
  const guard = guards[guardName];
  const actionCheck = actionChecks[guardName];
  const readSession = sessionReaders[guardName] ?? ((request: Request) => getSession(request));
  return async ({ request, context }, next) => {
    context.set(guardedContext, true);
    const session = await readSession(request, context);
    guard({ session, url: new URL(request.url) });
    if (session && actionCheck) await actionCheck(session, request.method);
    context.set(sessionContext, session);
    return next();
  };
}
