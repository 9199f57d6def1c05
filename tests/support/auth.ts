import type { EngineCase } from "./engines";
import { linkFromMail } from "./mail";
import { type RunningTestServer, type StartOptions, startServerOn } from "./server";

export const BROWSER_HEADERS = {
  "user-agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
};

/** Calls a Better Auth endpoint the way the site's own pages do (same origin, JSON). */
export function authPost(
  server: RunningTestServer,
  endpoint: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return postJson(server, `/api/auth${endpoint}`, body, headers);
}

/** Posts JSON the way the site's own scripts do: same origin; `headers` may add or override. */
export function postJson(
  server: RunningTestServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return browserPost(server, path, "application/json", JSON.stringify(body), headers);
}

/**
 * Posts a form the way a browser does without JavaScript: same origin, with the given cookie
 * ("" for none); `headers` may override either, as a cross-site page would.
 */
export function postForm(
  server: RunningTestServer,
  path: string,
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return postFormBody(server, path, cookie, new URLSearchParams(fields), headers);
}

/** `postForm` with the body as given: encoded already, or a stream (sent chunked). */
export function postFormBody(
  server: RunningTestServer,
  path: string,
  cookie: string,
  body: BodyInit,
  headers: Record<string, string> = {},
) {
  return browserPost(server, path, "application/x-www-form-urlencoded", body, {
    ...(cookie ? { cookie } : {}),
    ...headers,
  });
}

/** A same-origin POST as the site's pages make it, redirects not followed. */
function browserPost(
  server: RunningTestServer,
  path: string,
  contentType: string,
  body: BodyInit,
  headers: Record<string, string>,
) {
  return fetch(server.url + path, {
    method: "POST",
    redirect: "manual",
    headers: { ...BROWSER_HEADERS, "content-type": contentType, origin: server.url, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

/** The cookie header to send back, from a response's Set-Cookie lines. */
export function cookiesFrom(response: Response, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => pair.split("=", 2) as [string, string]),
  );
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const index = pair.indexOf("=");
    jar.set(pair.slice(0, index), pair.slice(index + 1));
  }
  return [...jar]
    .filter(([, value]) => value !== "")
    .map(([key, value]) => `${key}=${value}`)
    .join("; ");
}

/** Signs up, follows the verification link from the outbox and returns the signed-in cookies. */
export async function signUpVerified(
  server: RunningTestServer,
  user: { name: string; email: string; password: string },
  /** Cookies the browser already has (a followed referral link's). */
  cookie = "",
): Promise<string> {
  const signUp = await authPost(
    server,
    "/sign-up/email",
    { ...user, callbackURL: "/account" },
    cookie ? { cookie } : {},
  );
  if (signUp.status !== 200)
    throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const link = await linkFromMail(server.dataDir, user.email, "/api/auth/verify-email");
  const verified = await fetch(link, { redirect: "manual", headers: BROWSER_HEADERS });
  if (verified.status !== 302)
    throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
  return cookiesFrom(verified);
}

/** The address integration servers name in ADMIN_EMAILS. */
export const ADMIN_EMAIL = "boss@example.com";

/** Signs the administrator (`ADMIN_EMAIL`) up and verifies them; their cookies. */
export function signUpAdmin(
  server: RunningTestServer,
  password: string,
  name = "Boss",
): Promise<string> {
  return signUpVerified(server, { name, email: ADMIN_EMAIL, password });
}

/**
 * `startServerOn` with `ADMIN_EMAIL` in ADMIN_EMAILS and that administrator signed up: the server
 * and the administrator's cookies.
 */
export async function startWithAdmin(
  engine: EngineCase,
  password: string,
  options: StartOptions = {},
): Promise<{ server: RunningTestServer; admin: string }> {
  const server = await startServerOn(engine, {
    ...options,
    env: { ADMIN_EMAILS: ADMIN_EMAIL, ...options.env },
  });
  try {
    return { server, admin: await signUpAdmin(server, password) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** A browser's GET of `path`, redirects not followed; `headers` are added to a browser's own. */
export function getAsBrowser(
  server: RunningTestServer,
  path: string,
  headers: Record<string, string> = {},
) {
  return fetch(server.url + path, {
    redirect: "manual",
    headers: { ...BROWSER_HEADERS, ...headers },
  });
}

export function getWithCookies(server: RunningTestServer, path: string, cookie: string) {
  return getAsBrowser(server, path, { cookie });
}

/**
 * What the desktop app does to open the site signed in (app → web), and the visitor's "Continue":
 * the browser session's cookie (a session marked as opened from the desktop app).
 */
export async function desktopOpenedBrowser(
  server: RunningTestServer,
  accessToken: string,
  next = "/account",
): Promise<string> {
  const issued = await fetch(`${server.url}/api/desktop/web-session-token`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
    body: "{}",
  });
  if (issued.status !== 200) throw new Error(`web-session-token: ${issued.status}`);
  const { token } = (await issued.json()) as { token: string };
  const confirmed = await postForm(server, "/login-via", "", { token, next });
  if (confirmed.status !== 302) throw new Error(`login-via: ${confirmed.status}`);
  const browser = cookiesFrom(confirmed);
  if (!browser.includes("session_token")) throw new Error("no session cookie from login-via");
  return browser;
}
