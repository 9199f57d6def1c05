import { createHmac, timingSafeEqual } from "node:crypto";
import { type RouterContextProvider, createContext, data } from "react-router";
import { db } from "../db";
import { type Prepared, type PreparedValue, prepared } from "../db/prepared";
import { AppError } from "../http/errors";
import { auth } from "./auth.server";

import { type Role, roleOf } from "./role";
import type { Session } from "./session-shape";

export { type Role, roleOf };

export type { Session, SessionUser } from "./session-shape";

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
  if (!options.cached) {
    const checked = await sessionFromCookie(request.headers);
    if (checked !== undefined) return checked;
  }
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

interface CookieSettings {
  name: string;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
}

let cookieSettings: Promise<CookieSettings> | undefined;

function settings(): Promise<CookieSettings> {
  cookieSettings ??= auth().$context.then((context) => ({
    name: context.authCookies.sessionToken.name,
    secret: context.secret,
    expiresInMs: context.sessionConfig.expiresIn * 1000,
    updateAgeMs: context.sessionConfig.updateAge * 1000,
  }));
  return cookieSettings;
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index !== -1 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}

/** The columns of a session and its user that `sessionFromCookie` reads, from `session s join "user" u`. */
export const SESSION_COLUMNS = `s.id, (extract(epoch from s.expires_at) * 1000)::float8 as "expiresMs",
  u.id as "userId", u.email, u.name, u.email_verified as "emailVerified", u.role`;

export interface SessionRow {
  id: string;
  expiresMs: number;
  userId: string;
  email: string;
  name: string;
  emailVerified: boolean;
  role: string | null;
}

/**
 * The session row of a token with its user: planned once per connection, as every signed-in
 * request asks it (decision 0035).
 */
const sessionByToken = prepared<SessionRow>(
  "session_by_token",
  ["text"],
  `select ${SESSION_COLUMNS}
   from session s join "user" u on u.id = s.user_id
   where s.token = $1
   limit 1`,
);

/**
 * The common case of `getSession` in one indexed query (decision record 0023): the session cookie
 * Better Auth signed (HMAC-SHA256 of the token with its secret, checked in constant time), then the
 * session row joined with its user, still checked against the database on every call.
 * `undefined` hands the request to Better Auth: a bearer token, or a session due for its daily
 * renewal (which writes the new expiry).
 */
export async function sessionFromCookie(headers: Headers): Promise<Session | null | undefined> {
  const found = await sessionReadFromCookie(headers, sessionByToken, []);
  return found ? found.session : found;
}

/**
 * `sessionFromCookie` reading more in the same statement (decision 0035): `statement` selects
 * `SESSION_COLUMNS` and its own columns for the token in `$1`, at most one row; `values` are its
 * other placeholders, from `$2`. Its row is given back only with a session.
 */
export async function sessionReadFromCookie<Row extends SessionRow>(
  headers: Headers,
  statement: Prepared<Row>,
  values: readonly PreparedValue[],
): Promise<{ session: Session; row: Row } | null | undefined> {
  if (headers.has("authorization")) return undefined;
  const { name, secret, expiresInMs, updateAgeMs } = await settings();
  const raw = cookieValue(headers.get("cookie") ?? "", name);
  if (raw === null) return null;
  let signed: string;
  try {
    signed = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return null;
  const token = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  const [row] = await statement.run(db(), [token, ...values]);
  if (!row) return null;
  const expiresAt = row.expiresMs;
  const now = Date.now();
  if (expiresAt <= now) return undefined; // Better Auth deletes it and clears the cookie
  if (expiresAt - expiresInMs + updateAgeMs <= now) return undefined;
  return {
    session: {
      id: row.id,
      user: {
        id: row.userId,
        email: row.email,
        name: row.name,
        emailVerified: row.emailVerified,
        role: roleOf(row),
      },
    },
    row,
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

/** Whether this session's user is an administrator: the one test of the role, everywhere. */
export function isAdmin(session: Pick<Session, "user">): boolean {
  return session.user.role === "admin";
}

/**
 * For domain code an admin page calls: refuses anyone else with an AppError (403), so a function
 * moved or called from elsewhere cannot act for a customer.
 */
export function assertAdmin(session: Pick<Session, "user">): void {
  if (!isAdmin(session)) throw new AppError("forbidden", "This action is for administrators.");
}

/**
 * The session of an admin route's loader or action, checked again where the data is touched: the
 * admin guard admitted the request, and this keeps a route moved out from under it from leaking.
 */
export function requireAdmin(context: Readonly<RouterContextProvider>): Session {
  const session = requireSession(context);
  if (!isAdmin(session))
    throw data({ message: "This page is for administrators." }, { status: 403 });
  return session;
}
