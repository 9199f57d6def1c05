import { type BlogPost, type LegalPage, legalPages, posts } from "virtual:content";
import { postUrl } from "./blog.server";
import { legalUrl } from "./legal.server";
import { SITE_PAGES } from "./pages.server";
import { escapeXml } from "./text.server";

export interface SitemapEntry {
  path: string;
  /** YYYY-MM-DD when the page's date is known. */
  lastmod: string | null;
}

/** Paths crawlers should stay out of: private areas, sign-in hand-offs and the API. */
export const DISALLOWED_PATHS = [
  "/account",
  "/admin",
  "/api",
  "/billing",
  "/checkout",
  "/invoices",
  "/fix-subscription",
  "/admin-fix-subscription",
  "/login-success",
  "/login-via",
  // An invitation's page, and a customer's referral link (a redirect with a cookie).
  // A trailing "/": robots.txt matches by prefix, and "/r" alone would also hide /releases….
  "/team-invite/",
  "/r/",
] as const;

function newest(dates: readonly string[]): string | null {
  return dates.reduce<string | null>(
    (latest, date) => (!latest || date > latest ? date : latest),
    null,
  );
}

/**
 * Every public page worth indexing. Search results (/search) are left out on purpose: they are
 * endless variations of pages that are already listed.
 */
export function sitemapEntries(
  postSource: readonly BlogPost[] = posts,
  legalSource: readonly LegalPage[] = legalPages,
): SitemapEntry[] {
  return [
    ...SITE_PAGES.map((page) => ({ path: page.path, lastmod: null })),
    { path: "/blog", lastmod: newest(postSource.map((post) => post.date)) },
    ...postSource.map((post) => ({ path: postUrl(post.slug), lastmod: post.date })),
    { path: "/legal", lastmod: newest(legalSource.map((page) => page.updated)) },
    ...legalSource.map((page) => ({ path: legalUrl(page.slug), lastmod: page.updated })),
  ];
}

export function sitemapXml(
  siteUrl: string,
  entries: readonly SitemapEntry[] = sitemapEntries(),
): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastmod ? `<lastmod>${escapeXml(entry.lastmod)}</lastmod>` : "";
    return `<url><loc>${escapeXml(`${siteUrl}${entry.path}`)}</loc>${lastmod}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
