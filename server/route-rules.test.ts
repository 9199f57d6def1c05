import fc from "fast-check";
import type * as ReactRouter from "react-router";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { describe, expect, it, vi } from "vitest";

// React Router's own matchRoutes, watched: which tree the route rules hand it.
const matchRoutesCalls = vi.hoisted(() => ({ trees: [] as unknown[] }));
vi.mock("react-router", async (original) => {
  const real = await original<typeof ReactRouter>();
  return {
    ...real,
    matchRoutes: (...args: Parameters<typeof real.matchRoutes>) => {
      matchRoutesCalls.trees.push(args[0]);
      return real.matchRoutes(...args);
    },
  };
});
import {
  hasDotSegment,
  originForm,
  REMEMBERED_PATHS,
  requestPathname,
  routeRules,
} from "./route-rules";

describe("request paths as React Router sees them", () => {
  it("finds every spelling of a dot segment the URL parser would resolve", () => {
    for (const path of [
      "/api/webhooks/razorpay/../../desktop/token",
      "/api/webhooks/razorpay/%2e%2e/%2E%2E/desktop/token",
      "/api/webhooks/razorpay/.%2e/desktop/token",
      "/api/./desktop/token",
      "/api/webhooks/razorpay\\..\\..\\desktop/token",
      "/..",
      "/a/.",
    ]) {
      expect(hasDotSegment(path), path).toBe(true);
      // …and each one really routes elsewhere than it is spelt, which is why it is refused.
      expect(requestPathname(path), path).not.toBe(path.split("?")[0]);
    }
  });

  it("lets ordinary paths through, dots inside names and in the query included", () => {
    for (const path of [
      "/",
      "/releases/1.4.0/Pinout-1.4.0.dmg",
      "/blog/.well-known-post",
      "/.well-known/jwks.json",
      "/admin/releases.data",
      "/search?q=../../etc",
      "/updates/stable/latest.yml?v=..",
      "/a/...",
    ]) {
      expect(hasDotSegment(path), path).toBe(false);
    }
    expect(requestPathname("/releases/1.4.0/a.dmg?x=1")).toBe("/releases/1.4.0/a.dmg");
  });
});

describe("the request target in origin form (issue 32, point 5)", () => {
  it("keeps a path, and reads an absolute URL as its path and query, as spelt, with its host", () => {
    expect(originForm("/api/desktop/me?x=1")).toEqual({ target: "/api/desktop/me?x=1" });
    expect(originForm("http://pinout.dev/api/desktop/me?x=1")).toEqual({
      target: "/api/desktop/me?x=1",
      host: "pinout.dev",
    });
    expect(originForm("HTTPS://pinout.dev:8443")).toEqual({ target: "/", host: "pinout.dev:8443" });
    expect(originForm("http://pinout.dev?q=1")).toEqual({ target: "/?q=1", host: "pinout.dev" });
    // Dot segments stay for the dot-segment check to refuse.
    expect(originForm("http://h/a/../b")?.target).toBe("/a/../b");
  });

  it("has nothing for the other forms", () => {
    for (const target of [
      "*",
      "",
      "pinout.dev:443",
      "mailto:a@example.com",
      "http://",
      "ftp://h/x",
    ])
      expect(originForm(target), target).toBeNull();
  });
});

/** A build with the shapes of app/routes.ts that matter here: layouts, params, a splat. */
function buildOf(
  routes: { id: string; parentId?: string; path?: string; index?: boolean; page: boolean }[],
) {
  const page = { default: () => null };
  return {
    routes: Object.fromEntries(
      routes.map(({ page: isPage, ...route }) => [
        route.id,
        { ...route, module: isPage ? page : {} },
      ]),
    ),
  } as unknown as ServerBuild;
}

const build = buildOf([
  { id: "root", path: "", page: true },
  { id: "home", parentId: "root", index: true, page: true },
  { id: "guard", parentId: "root", page: true },
  { id: "adminLayout", parentId: "guard", page: true },
  { id: "adminUsers", parentId: "adminLayout", path: "admin/users", page: true },
  { id: "admin", parentId: "adminLayout", path: "admin", page: true },
  { id: "post", parentId: "root", path: "blog/:slug", page: true },
  { id: "download", parentId: "root", path: "download/:platform/:version?", page: true },
  { id: "optional", parentId: "root", path: "docs/intro?/:topic", page: true },
  { id: "api", parentId: "root", path: "api/desktop/me", page: false },
  { id: "notFound", parentId: "root", path: "*", page: true },
]);

describe("the one spelling of a page's path", () => {
  const canonical = (path: string) => routeRules(build).canonicalPagePath(path);

  it("spells the fixed segments as the routes do, whatever case or escapes they came in", () => {
    expect(canonical("/Admin/Users")).toBe("/admin/users");
    expect(canonical("/ADMIN")).toBe("/admin");
    expect(canonical("/%41dmin/users")).toBe("/admin/users");
    expect(canonical("/Admin/")).toBe("/admin/");
  });

  it("keeps parameters as they were sent: they are the visitor's, not the site's", () => {
    expect(canonical("/Blog/Welcome-To-Pinout")).toBe("/blog/Welcome-To-Pinout");
    expect(canonical("/DOWNLOAD/Mac")).toBe("/download/Mac");
    expect(canonical("/Download/Mac/1.4.0-Beta")).toBe("/download/Mac/1.4.0-Beta");
  });

  it("leaves canonical paths, resource routes and unknown paths alone", () => {
    for (const path of ["/", "/admin/users", "/blog/welcome", "/API/desktop/me", "/No-Such-Page"])
      expect(canonical(path), path).toBeNull();
  });

  it("offers nothing when a left-out optional segment makes the spelling uncertain", () => {
    expect(canonical("/Docs/intro/uart")).toBe("/docs/intro/uart");
    expect(canonical("/Docs/uart")).toBeNull();
  });
});

describe("the .data spelling of a resource route (issue 32, point 4)", () => {
  const resourceData = (path: string) => routeRules(build).isResourceData(path);

  it("is found for any resource route, whatever its case", () => {
    expect(resourceData("/api/desktop/me.data")).toBe(true);
    expect(resourceData("/API/Desktop/ME.data")).toBe(true);
  });

  it("is not a page's data, the root's, an unknown path's or a path without .data", () => {
    for (const path of [
      "/admin/users.data",
      "/blog/welcome.data",
      "/_root.data",
      "/no-such-page.data",
      "/api/desktop/me",
    ])
      expect(resourceData(path), path).toBe(false);
  });
});

describe("remembered matches", () => {
  const paths = ["/admin/users", "/Admin/Users", "/blog/a", "/download/mac/1.0", "/api/desktop/me"];

  it("answers a path asked again as it did the first time, and as fresh rules do", () => {
    const rules = routeRules(build);
    const first = paths.map((path) => [rules.leafFor(path), rules.canonicalPagePath(path)]);
    const again = paths.map((path) => [rules.leafFor(path), rules.canonicalPagePath(path)]);
    expect(again).toEqual(first);
    const fresh = routeRules(build);
    expect(paths.map((path) => [fresh.leafFor(path), fresh.canonicalPagePath(path)])).toEqual(
      first,
    );
  });

  it("gives each caller its own params, so one request cannot change another's", () => {
    const rules = routeRules(build);
    const leaf = rules.leafFor("/blog/welcome")!;
    // What a careless caller could do: Params are read-only in type only.
    (leaf.params as Record<string, string>).slug = "changed";
    expect(rules.leafFor("/blog/welcome")?.params).toEqual({ slug: "welcome" });
  });

  it("still answers correctly after more made-up paths than it remembers", () => {
    const rules = routeRules(build);
    expect(rules.leafFor("/blog/first")?.params).toEqual({ slug: "first" });
    for (let i = 0; i < REMEMBERED_PATHS * 2; i++) rules.leafFor(`/made-up/${i}`);
    expect(rules.leafFor("/blog/first")).toEqual({ id: "post", params: { slug: "first" } });
    expect(rules.leafFor(`/made-up/${REMEMBERED_PATHS * 2 - 1}`)?.id).toBe("notFound");
  });
});

describe("app/routes.ts", () => {
  it("spells every path in lower case (the canonical-case redirect skips lower-case paths)", async () => {
    const { default: routes } = await import("../app/routes");
    const paths: string[] = [];
    const walk = (entries: readonly { path?: string; children?: unknown[] }[]) => {
      for (const entry of entries) {
        if (entry.path) paths.push(entry.path);
        if (entry.children) walk(entry.children as { path?: string; children?: unknown[] }[]);
      }
    };
    walk(routes as { path?: string; children?: unknown[] }[]);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((path) => /[A-Z]/.test(path.replace(/:[A-Za-z_]+/g, "")))).toEqual([]);
  });
});

describe("matching over the routes a path's first segment can reach", () => {
  /** app/routes.ts under the root route, as the build's manifest has it (ids as React Router makes them). */
  async function siteRoutes() {
    const { default: config } = await import("../app/routes");
    type Entry = { id?: string; file: string; path?: string; index?: boolean; children?: Entry[] };
    const manifest: Parameters<typeof buildOf>[0] = [{ id: "root", path: "", page: true }];
    const walk = (entries: readonly Entry[], parentId: string) => {
      for (const entry of entries) {
        const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
        manifest.push({ id, parentId, path: entry.path, index: entry.index, page: true });
        walk(entry.children ?? [], id);
      }
    };
    walk(config as Entry[], "root");
    const tree = (parentId: string | undefined): RouteObject[] =>
      manifest
        .filter((route) => route.parentId === parentId)
        .map((route) =>
          route.index
            ? { id: route.id, index: true, path: route.path }
            : { id: route.id, path: route.path, children: tree(route.id) },
        );
    return { build: buildOf(manifest), tree: tree(undefined), manifest };
  }

  /** React Router's own answer over the whole tree, in leafFor's terms. */
  const wholeTreeLeaf = (tree: RouteObject[], path: string) => {
    const leaf = matchRoutes(tree, path)?.at(-1);
    return leaf?.route.id ? { id: leaf.route.id, params: { ...leaf.params } } : null;
  };

  it("matches a path it has not seen over the routes of its first segment, not over every route", async () => {
    const { build, tree } = await siteRoutes();
    const count = (routes: readonly RouteObject[]): number =>
      routes.reduce((sum, route) => sum + 1 + count(route.children ?? []), 0);
    const rules = routeRules(build);
    matchRoutesCalls.trees.length = 0;
    expect(rules.leafFor("/blog/a-post-nobody-asked-for")?.params).toEqual({
      slug: "a-post-nobody-asked-for",
    });
    expect(rules.leafFor("/no-such-page/1")?.id).toBeTruthy();
    const [blog, unknown] = matchRoutesCalls.trees as RouteObject[][];
    // The blog's routes, the root and its layouts, and what starts with a parameter or a splat.
    expect(count(blog!)).toBeLessThan(count(tree) / 4);
    expect(count(unknown!)).toBeLessThan(count(tree) / 4);
  });

  it("answers what React Router answers over the whole tree, for the site's routes and any path", async () => {
    const { build, tree, manifest } = await siteRoutes();
    const segments = [
      ...new Set(manifest.flatMap((route) => (route.path ?? "").split("/")).filter(Boolean)),
    ];
    expect(segments.length).toBeGreaterThan(40);
    const spelt = fc.oneof(
      // A route's own segment, a parameter's or optional segment's name as a literal, in any case.
      fc
        .constantFrom(...segments)
        .chain((segment) =>
          fc
            .array(fc.boolean(), { minLength: segment.length, maxLength: segment.length })
            .map((upper) => [...segment].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("")),
        ),
      // …percent-encoded, as a browser or a scanner may send it.
      fc
        .constantFrom(...segments)
        .map((segment) => encodeURIComponent(segment).replace(/a/g, "%61")),
      fc.constantFrom("", "1.4.0", "9.18.0-beta", "%2F", "%E0%A4", "\u212Aey", "ADMIN", "api.data"),
      fc.string({ maxLength: 8 }),
    );
    const path = fc
      .array(spelt, { maxLength: 5 })
      .chain((parts) =>
        fc.constantFrom(`/${parts.join("/")}`, `/${parts.join("/")}/`, `//${parts.join("/")}`),
      );
    const rules = routeRules(build);
    // React Router warns of each path it cannot decode (the hostile spellings above).
    vi.spyOn(console, "warn").mockImplementation(() => {});
    fc.assert(
      fc.property(path, (pathname) => {
        expect(rules.leafFor(pathname), pathname).toEqual(wholeTreeLeaf(tree, pathname));
      }),
      { numRuns: 600 },
    );
    // And every route's own path, with its parameters filled in.
    for (const route of manifest) {
      const filled = `/${(route.path ?? "").replace(/:[A-Za-z_]+\??/g, "x1").replace(/\?/g, "")}`;
      expect(rules.leafFor(filled), filled).toEqual(wholeTreeLeaf(tree, filled));
    }
  });
});
