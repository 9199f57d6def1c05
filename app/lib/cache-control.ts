/**
 * Public pages are the same for every visitor (decision records 0003, 0022): shared caches (the
 * site's own, a CDN) keep them 30 s and may serve them stale for 5 minutes while refreshing;
 * browsers revalidate each time with the ETag (a 304 costs almost nothing).
 */
export const PUBLIC_PAGE_CACHE_CONTROL =
  "public, max-age=0, must-revalidate, s-maxage=30, stale-while-revalidate=300";

/** Pages that differ by the visitor's operating system (the download button's label). */
export const PLATFORM_VARY = "Sec-CH-UA-Platform, User-Agent";

/** The `headers` export of a public page. */
export function publicPageHeaders(): Record<string, string> {
  return { "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL };
}

/** The `headers` export of a public page that differs by platform; asks Chromium for the hint. */
export function publicPlatformPageHeaders(): Record<string, string> {
  return {
    "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL,
    "Accept-CH": "Sec-CH-UA-Platform",
    Vary: PLATFORM_VARY,
  };
}
