import { site } from "~/config/site";

/**
 * Where the desktop app may receive its sign-in token (RFC 8252): a loopback address on any port
 * over plain http (127.0.0.1 or [::1], never "localhost", which can resolve elsewhere), or the
 * app's own URL scheme from the site configuration. Anything else is refused.
 */
export function isAllowedDesktopRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === "http:") {
    return (url.hostname === "127.0.0.1" || url.hostname === "[::1]") && url.port !== "";
  }
  return url.protocol === `${site.product.desktopScheme}:`;
}

/** The redirect URI with the token and state added to its query. */
export function desktopCallbackUrl(redirectUri: string, token: string, state: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set("token", token);
  url.searchParams.set("state", state);
  return url.toString();
}
