/**
 * Back to the app (issue 57, point 4): when the app opens the browser for a purchase, a change of
 * seats or a payment method, it names where it waits (its loopback address or its own scheme). The
 * "Continue as …" step remembers that address in a cookie for an hour, and the page where the
 * errand ends offers "Return to the app" to it. The address is checked as a sign-in's
 * redirect_uri is, when it is stored and again when it is read: a cookie set by anything else is
 * never a link.
 */
import { isAllowedDesktopRedirect } from "~/lib/desktop-redirect";

const COOKIE = "app_return";
const ONE_HOUR = 3600;

export function appReturnCookie(uri: string, secure: boolean): string {
  return `${COOKIE}=${encodeURIComponent(uri)}; Path=/; Max-Age=${ONE_HOUR}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The app's return address from the request's cookie, when there is a valid one. */
export function appReturnOf(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(rest.join("="));
    } catch {
      return null;
    }
    return isAllowedDesktopRedirect(value) ? value : null;
  }
  return null;
}

/**
 * The link back to the app for `request` (from its cookie), with what was done in its query
 * (`?done=purchase&subscription=…`); null when the browser was not opened by the app.
 */
export function appReturnFor(request: Request, done: Record<string, string>): string | null {
  const uri = appReturnOf(request.headers.get("cookie"));
  if (!uri) return null;
  const url = new URL(uri);
  for (const [key, value] of Object.entries(done)) url.searchParams.set(key, value);
  return url.toString();
}
