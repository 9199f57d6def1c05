import { type RouterContextProvider, createContext } from "react-router";

export type Role = "user" | "admin";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export interface Session {
  user: SessionUser;
}

/**
 * The session of a request, or null when nobody is signed in. Every guard, loader and API asks
 * this one function; the identity layer implements it, and nothing else reads cookies or tokens.
 *
 * There is no identity layer yet, so no request is signed in.
 */
export async function getSession(_request: Request): Promise<Session | null> {
  return null;
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
