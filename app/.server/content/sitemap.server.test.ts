import { legalPages, posts } from "virtual:content";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { DISALLOWED_PATHS, robotsTxt, sitemapXml } from "./sitemap.server";
import { childText, childrenNamed, parseXml } from "../../../tests/support/xml";

const SITE = "https://pinout.example";

describe("sitemap.xml", () => {
  const urlset = parseXml(sitemapXml(SITE));
  const entries = childrenNamed(urlset, "url").map((url) => ({
    loc: childText(url, "loc"),
    lastmod: childText(url, "lastmod"),
  }));
  const locs = entries.map((entry) => entry.loc);

  it("is a well-formed urlset in the sitemap namespace", () => {
    expect(urlset.name).toBe("urlset");
    expect(urlset.attributes.xmlns).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    expect(new Set(locs).size).toBe(locs.length);
  });

  it("lists every public page with absolute URLs", () => {
    for (const path of [
      "/",
      "/landing",
      "/pricing",
      "/download",
      "/about",
      "/feedback",
      "/blog",
      "/legal",
    ]) {
      expect(locs).toContain(`${SITE}${path}`);
    }
    for (const post of posts) expect(locs).toContain(`${SITE}/blog/${post.slug}`);
    for (const page of legalPages) expect(locs).toContain(`${SITE}/legal/${page.slug}`);
    expect(locs).toHaveLength(8 + posts.length + legalPages.length);
  });

  it("leaves out search and the private areas", () => {
    expect(locs.some((loc) => loc?.includes("/search"))).toBe(false);
    for (const path of DISALLOWED_PATHS) {
      expect(locs.some((loc) => loc?.startsWith(`${SITE}${path}`))).toBe(false);
    }
  });

  it("gives lastmod where the date is known", () => {
    const lastmod = (path: string) =>
      entries.find((entry) => entry.loc === `${SITE}${path}`)?.lastmod;
    const welcome = posts.find((post) => post.slug === "welcome-to-pinout-blog")!;
    expect(lastmod("/blog/welcome-to-pinout-blog")).toBe(welcome.date);
    expect(lastmod("/blog")).toBe(posts[0]!.date);
    expect(lastmod("/legal/privacy")).toBe(
      legalPages.find((page) => page.slug === "privacy")!.updated,
    );
    expect(lastmod("/pricing")).toBeUndefined();
  });
});

describe("robots.txt", () => {
  const lines = robotsTxt(SITE).split("\n");

  it("allows everything public and disallows the private areas", () => {
    expect(lines[0]).toBe("User-agent: *");
    expect(lines).toContain("Allow: /");
    for (const path of [
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
      "/team-invite/",
      "/r/",
    ]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines.filter((line) => line.startsWith("Disallow:"))).toHaveLength(12);
  });

  it("points to the sitemap with an absolute URL", () => {
    expect(lines).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });

  it("does not block the blog, the legal pages or search", () => {
    const disallowed = lines
      .filter((line) => line.startsWith("Disallow:"))
      .map((line) => line.slice(10));
    for (const path of ["/blog", "/legal", "/search", "/pricing"]) {
      expect(disallowed.some((prefix) => path.startsWith(prefix))).toBe(false);
    }
  });
});

describe("robots.txt against app/routes.ts", () => {
  /** Every route of the route table with its full path and whether a guard protects it. */
  function walk(entries: readonly RouteConfigEntry[], parent = "", guarded = false) {
    return entries.flatMap((entry): { path: string; guarded: boolean }[] => {
      const path = entry.path ? `${parent}/${entry.path}` : parent;
      const inside = guarded || /^routes\/guards\//.test(entry.file);
      return [
        ...(entry.path !== undefined || entry.index
          ? [{ path: path || "/", guarded: inside }]
          : []),
        ...walk(entry.children ?? [], path, inside),
      ];
    });
  }
  const table = walk(routes);
  /** robots.txt's prefix match; a prefix ending in "/" covers the paths under it. */
  const under = (path: string, prefix: string) =>
    prefix.endsWith("/")
      ? path.startsWith(prefix)
      : path === prefix || path.startsWith(`${prefix}/`);
  const disallowed = (path: string) => DISALLOWED_PATHS.some((prefix) => under(path, prefix));

  it("keeps crawlers out of every guarded route, the API and the sign-in hand-offs", () => {
    // A new private page or API added to app/routes.ts fails here until robots.txt covers it.
    const private_ = table.filter(
      (route) => route.guarded || route.path.startsWith("/api/") || route.path === "/login-via",
    );
    expect(private_.length).toBeGreaterThan(20);
    expect(private_.filter((route) => !disallowed(route.path))).toEqual([]);
  });

  it("disallows nothing the route table does not have, and no public page", () => {
    for (const prefix of DISALLOWED_PATHS)
      expect(
        table.some((route) => under(route.path, prefix)),
        prefix,
      ).toBe(true);
    const publicPages = [
      "/",
      "/landing",
      "/pricing",
      "/download",
      "/blog",
      "/legal",
      "/search",
      "/feedback",
    ];
    for (const path of publicPages) expect(disallowed(path), path).toBe(false);
  });
});
