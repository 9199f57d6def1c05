import { type RouterContextProvider, createContext, data } from "react-router";
import { env } from "../env";
import { auth } from "./auth.server";

export type Role = "user" | "admin";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  emailVerified: boolean;
}

export interface Session {
  id: string;
  user: SessionUser;
}

/** Admin when the stored role says so, or when a verified email is listed in ADMIN_EMAILS. */
export function roleOf(user: {
  email: string;
  emailVerified: boolean;
  role?: string | null;
}): Role {
  if (user.role === "admin") return "admin";
  if (user.emailVerified && env().ADMIN_EMAILS.includes(user.email.toLowerCase())) return "admin";
  return "user";
}

/**
 * The session of a request, or null when nobody is signed in. Every guard, loader and API asks
 * this one function; nothing else reads cookies or tokens.
 *
 * By default the database is asked, so a session signed out elsewhere is refused at once.
 * `cached` lets the signed cookie cache answer (up to 5 minutes old): only for conveniences such as
 * prefilling a form, never for a decision about access.
 */
export async function getSession(
  request: Request,
  options: { cached?: boolean } = {},
): Promise<Session | null> {
  const result = await auth().api.getSession({
    headers: request.headers,
    query: { disableCookieCache: !options.cached },
  });
  if (!result) return null;
  const { user, session } = result;
  return {
    id: session.id,
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.emailVerified,
      role: roleOf(user),
    },
  };
}

/** The session resolved by the guard middleware for the current request (null: anonymous). */
export const sessionContext = createContext<Session | null>(null);

/**
 * The session of a guarded route's loader or action. The guard middleware has already refused
 * anonymous requests; a missing session here means a route is missing from the guard table.
 */
export function requireSession(context: Readonly<RouterContextProvider>): Session {
  const session = context.get(sessionContext);
  if (!session) throw new Error("requireSession() on a route without an auth guard");
  return session;
}

/**
 * The session of an admin route's loader or action, checked again where the data is touched: the
 * admin guard admitted the request, and this keeps a route moved out from under it from leaking.
 */
export function requireAdmin(context: Readonly<RouterContextProvider>): Session {
  const session = requireSession(context);
  if (session.user.role !== "admin")
    throw data({ message: "This page is for administrators." }, { status: 403 });
  return session;
}
