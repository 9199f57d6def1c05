/**
 * What analytics may learn of a URL: the path, plus only query parameters known to be harmless.
 * Reset tokens, handoff codes and customer emails ride in query strings and must never reach the
 * events table or GA4; some pages are not reported at all.
 */

/** Pages with secrets or other people's data in their URL or content: no page_view. */
const UNREPORTED = [/^\/login-success\/?$/, /^\/login-via\/?$/, /^\/admin(\/|$|-)/];

/** Parameters that say nothing about a person: campaign tags, the search box, a chosen plan. */
const ALLOWED_PARAMS = new Set(["q", "plan", "cycle", "billing", "view"]);

function allowed(name: string): boolean {
  return ALLOWED_PARAMS.has(name) || /^utm_[a-z]{1,20}$/.test(name);
}

/** The URL as analytics may record it, or null when the page is not reported at all. */
export function analyticsLocation(href: string): { location: string; path: string } | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (UNREPORTED.some((pattern) => pattern.test(url.pathname))) return null;
  // The password-reset form carries its token in the query.
  if (
    url.pathname.startsWith("/auth") &&
    (url.searchParams.get("view") === "reset" || url.searchParams.has("token"))
  )
    return null;
  const kept = new URLSearchParams();
  for (const [name, value] of url.searchParams)
    if (allowed(name)) kept.append(name, value.slice(0, 200));
  const query = kept.toString();
  return {
    location: `${url.origin}${url.pathname}${query ? `?${query}` : ""}`,
    path: url.pathname,
  };
}
