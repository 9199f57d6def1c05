/**
 * The sign-in, sign-up, password-reset and two-factor forms as plain form posts (issue 21): they
 * work the moment they are visible, before the page's scripts run and without JavaScript, and a
 * password only ever travels in a POST body. Each form's action calls Better Auth's own HTTP
 * endpoint in this process, through the same handler the browser's client reaches at /api/auth:
 * the endpoint allow-list, the rate limits (keyed on the client address our server trusts), the
 * origin check and the cookies are exactly the API's. Its cookies are passed on to the browser.
 */
import { authFailureMessage } from "~/lib/auth-messages";
import { CLIENT_IP_HEADER, auth } from "./auth.server";

/** Request headers Better Auth reads: the session and two-factor cookies, origin, device. */
const PASSED_ON = ["cookie", "origin", "referer", "user-agent", "accept-language"];

export type AuthAnswer =
  | { ok: true; data: Record<string, unknown>; cookies: string[] }
  | { ok: false; status: number; code: string | null; message: string; cookies: string[] };

export async function postToAuth(
  request: Request,
  clientIp: string,
  path: string,
  body: Record<string, unknown>,
): Promise<AuthAnswer> {
  const headers = new Headers({
    "content-type": "application/json",
    accept: "application/json",
    [CLIENT_IP_HEADER]: clientIp,
  });
  for (const name of PASSED_ON) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const response = await auth().handler(
    new Request(new URL(`/api/auth${path}`, request.url), {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
  const cookies = response.headers.getSetCookie();
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await response.text());
    if (parsed && typeof parsed === "object") json = parsed as Record<string, unknown>;
  } catch {
    // An empty or non-JSON answer: the status says enough.
  }
  if (response.ok) return { ok: true, data: json, cookies };
  return {
    ok: false,
    status: response.status,
    code: typeof json.code === "string" ? json.code : null,
    message: authFailureMessage({
      status: response.status,
      code: typeof json.code === "string" ? json.code : null,
      message: typeof json.message === "string" ? json.message : null,
      statusText: response.statusText,
    }),
    cookies,
  };
}

/** Response headers carrying Better Auth's cookies to the browser. */
export function cookieHeaders(cookies: readonly string[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}
