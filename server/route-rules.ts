/**
 * What the server in front of React Router needs to know about a request's route, decided the way
 * React Router decides it: the path it routes on, and the route it will match (with React
 * Router's own `matchRoutes` over the build's route tree), whose `handle` says what applies
 * (app/lib/route-handle.ts). Route paths live in app/routes.ts only.
 */
import {
  matchRoutes,
  type Params,
  type RouteMatch,
  type RouteObject,
  type ServerBuild,
} from "react-router";
import type { RouteHandle } from "~/lib/route-handle";

/**
 * The path React Router routes a request on: its express adapter builds the request URL as
 * `${protocol}://${host}${req.originalUrl}`, and the WHATWG URL parser resolves dot segments
 * (also `%2e`), turns `\` into `/` and escapes what needs escaping.
 */
export function requestPathname(rawUrl: string): string {
  try {
    return new URL(`http://localhost${rawUrl}`).pathname;
  } catch {
    return "/";
  }
}

/**
 * The request target in origin form (`/path?query`), the only form the rest of the server reads
 * (React Router's express adapter puts the target after the host, so `http://host/x` became an
 * invalid URL and a 500; issue 32, point 5). An absolute-form target (`GET http://host/x`, which
 * HTTP/1.1 servers must accept) gives its path and query, and its authority (which replaces the
 * Host header, RFC 9112 §3.2.2); anything else (`*`, garbage) is null, for a 400.
 */
export function originForm(rawUrl: string): { target: string; host?: string } | null {
  if (rawUrl.startsWith("/")) return { target: rawUrl };
  if (!/^https?:\/\//i.test(rawUrl)) return null;
  try {
    const { host } = new URL(rawUrl);
    // The path as sent, after the authority: the parser would resolve dot segments, which the
    // dot-segment check must still see.
    const rest = rawUrl.slice(rawUrl.indexOf("//") + 2);
    const cut = rest.search(/[/?]/);
    const tail = cut === -1 ? "" : rest.slice(cut);
    return host ? { target: tail.startsWith("/") ? tail : `/${tail}`, host } : null;
  } catch {
    return null;
  }
}

/**
 * Whether a request path has a segment the URL parser would resolve away (`.`, `..`, either
 * percent-encoded, or a `\` standing for `/`). Such a path names another route than it spells, so
 * anything deciding on the spelling (a cap, a log rule) and React Router would disagree: it is
 * refused before routing. No browser sends one: they resolve dot segments before asking.
 */
export function hasDotSegment(rawUrl: string): boolean {
  const path = rawUrl.split(/[?#]/, 1)[0] ?? "";
  if (path.includes("\\")) return true;
  return path.split("/").some((segment) => {
    const plain = segment.replace(/%2e/gi, ".");
    return plain === "." || plain === "..";
  });
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface RouteRules {
  /** The handle of the route React Router matches for this path (its `.data` URL too). */
  handleFor(pathname: string): RouteHandle | undefined;
  /**
   * The path spelt as app/routes.ts spells it, when this one reaches a page with its fixed
   * segments in another case (`/Admin/Users` → `/admin/users`); null when it is already so, or
   * when the route is not a page. Parameters keep their spelling: they are the visitor's data.
   */
  canonicalPagePath(pathname: string): string | null;
  /** The route React Router matches for this path (its id) and the params it gives it. */
  leafFor(pathname: string): { id: string; params: Params } | null;
  /**
   * Whether this is the single-fetch `.data` spelling of a resource route (API, feed, file):
   * React Router would answer it with the loader's data but not the route's own headers.
   */
  isResourceData(pathname: string): boolean;
}

type ManifestRoute = NonNullable<ServerBuild["routes"][string]>;

/** The build's route manifest as the nested tree `matchRoutes` takes. */
function routeTree(build: ServerBuild): RouteObject[] {
  const children = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(route);
    children.set(route.parentId, siblings);
  }
  const toObjects = (parentId: string | undefined): RouteObject[] =>
    (children.get(parentId) ?? []).map((route): RouteObject => {
      if (route.index) return { id: route.id, index: true, path: route.path };
      const nested = toObjects(route.id);
      return {
        id: route.id,
        path: route.path,
        caseSensitive: route.caseSensitive,
        ...(nested.length > 0 ? { children: nested } : {}),
      };
    });
  return toObjects(undefined);
}

/** How many paths' matches are remembered (the most recently asked); see `matcher`. */
export const REMEMBERED_PATHS = 500;

/**
 * The routes of `tree` that can match a path whose first segment is `first` (decoded, lower
 * case), in their order: every route whose path starts with that literal or with a parameter, an
 * optional segment or a splat, and every route whose path has no segment yet (the root, layouts,
 * the index) with its children pruned the same way. A route left out cannot match such a path, so
 * `matchRoutes` over the pruned tree answers what it answers over the whole tree: React Router ranks
 * branches by their paths' scores and then by their order among siblings, which pruning keeps,
 * and answers the first that matches (`route-rules.test.ts` checks this against the site's routes).
 */
function pruneTree(routes: RouteObject[], first: string, parentPath = ""): RouteObject[] {
  const kept: RouteObject[] = [];
  for (const route of routes) {
    const path = route.path?.startsWith("/") ? route.path : `${parentPath}/${route.path ?? ""}`;
    const leading = leadingSegment(path);
    if (leading === undefined) {
      // An index route has no children; the root and layouts keep the children that can match.
      kept.push(
        route.index ? route : { ...route, children: pruneTree(route.children ?? [], first, path) },
      );
    } else if (!isLiteralSegment(leading) || leading.toLowerCase() === first) {
      kept.push(route);
    }
  }
  return kept;
}

/**
 * A fixed segment React Router compares as it is spelt, ignoring case (its patterns are
 * case-insensitive regular expressions without the `u` flag: ASCII letters fold, nothing else).
 * Anything else in a first segment keeps its route in every pruned tree.
 */
function isLiteralSegment(segment: string): boolean {
  return /^[A-Za-z0-9._~!$&'()+,;=@-]+$/.test(segment);
}

/** A path's first segment as spelt, if it has one. */
function leadingSegment(path: string | undefined): string | undefined {
  return path?.split("/").find((segment) => segment !== "");
}

/** The first segment React Router matches a path's routes on: decoded as it decodes it. */
function firstSegmentOf(pathname: string): string {
  return decodedSegment(leadingSegment(pathname) ?? "")
    .replace(/\//g, "%2F")
    .toLowerCase();
}

/**
 * `matchRoutes` over `tree`, remembering the answers for the most recently asked paths.
 * React Router's `matchRoutes` flattens and ranks the whole route tree on every call (its own
 * request handler passes branches it flattened once, which it does not export); the middleware
 * asks two to four times per request, which was 15 % of the server's CPU under the fuzz test. The
 * answer depends only on the path, and a site's requests repeat a few hundred paths. A path not
 * remembered (an update feed's version, an id, a made-up path) is matched over the routes its
 * first segment can reach (`pruneTree`, each pruned tree made once), not the whole tree: flattening
 * every route for each such path was 40 CPU-seconds of one test worker over 8,000 update checks.
 */
function matcher(tree: RouteObject[], basename: string | undefined) {
  const remembered = new Map<string, readonly RouteMatch[] | null>();
  // One pruned tree per first segment a route spells, and one for any other first segment. A site
  // under a basename is matched over the whole tree (the basename is not a route's segment).
  const pruned = new Map<string, RouteObject[]>();
  const literals = new Set(
    tree.flatMap(function firsts(route: RouteObject): string[] {
      const leading = leadingSegment(route.path);
      if (leading === undefined) return (route.children ?? []).flatMap(firsts);
      return isLiteralSegment(leading) ? [leading.toLowerCase()] : [];
    }),
  );
  const treeFor = (pathname: string): RouteObject[] => {
    if (basename && basename !== "/") return tree;
    const first = firstSegmentOf(pathname);
    const key = literals.has(first) ? first : "";
    let routes = pruned.get(key);
    if (!routes) pruned.set(key, (routes = pruneTree(tree, key)));
    return routes;
  };
  return (pathname: string): readonly RouteMatch[] | null => {
    const known = remembered.get(pathname);
    if (known !== undefined) {
      // Most recently used last, so the oldest is first to go.
      remembered.delete(pathname);
      remembered.set(pathname, known);
      return known;
    }
    const matches = matchRoutes(treeFor(pathname), pathname, basename);
    remembered.set(pathname, matches);
    if (remembered.size > REMEMBERED_PATHS) {
      remembered.delete(remembered.keys().next().value as string);
    }
    return matches;
  };
}

export function routeRules(build: ServerBuild): RouteRules {
  const matchesFor = matcher(routeTree(build), build.basename);
  return {
    handleFor(pathname) {
      // Single-fetch data requests (`/admin/releases.data`, `/_root.data`) run the same route.
      const routed = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
      const leaf = matchesFor(routed)?.at(-1)?.route.id;
      if (!leaf) return undefined;
      return build.routes[leaf]?.module.handle as RouteHandle | undefined;
    },
    isResourceData(pathname) {
      if (!pathname.endsWith(".data") || pathname === "/_root.data") return false;
      const leaf = matchesFor(pathname.slice(0, -".data".length))?.at(-1)?.route.id;
      return leaf !== undefined && !build.routes[leaf]?.module.default;
    },
    leafFor(pathname) {
      const leaf = matchesFor(pathname)?.at(-1);
      // A copy: the remembered match is shared by every request for this path.
      return leaf?.route.id ? { id: leaf.route.id, params: { ...leaf.params } } : null;
    },
    canonicalPagePath(pathname) {
      const matches = matchesFor(pathname);
      const leaf = matches?.at(-1)?.route.id;
      // Resource routes (API, feeds, files) answer programs, which need not follow a redirect.
      if (!matches || !leaf || !build.routes[leaf]?.module.default) return null;
      const base = build.basename && build.basename !== "/" ? build.basename : "";
      const spelt = pathname.slice(base.length).split("/").slice(1);
      const pattern = matches
        .flatMap((match) => (match.route.path ? match.route.path.split("/") : []))
        .filter(Boolean);
      for (const [index, segment] of pattern.entries()) {
        if (segment === "*" || index >= spelt.length) break;
        if (segment.startsWith(":")) continue;
        const literal = segment.replace(/\?$/, "");
        // An optional segment left out shifts the rest: no safe spelling to offer.
        if (decodedSegment(spelt[index]!).toLowerCase() !== literal.toLowerCase()) return null;
        spelt[index] = literal;
      }
      const canonical = `${base}/${spelt.join("/")}`;
      // "//host" in a Location header would leave the site.
      if (canonical === pathname || canonical.startsWith("//")) return null;
      return canonical;
    },
  };
}

/** The route id a request path is answered by (for /metrics): a data request counts as its page. */
const MANIFEST_PATH = "/__manifest";

export function routeIdOf(rules: RouteRules, pathname: string): string {
  // React Router's route discovery (routeDiscovery's default manifestPath): a series of its own,
  // not the 404 page's, which no route of ours would otherwise match.
  if (pathname === MANIFEST_PATH) return "__manifest";
  const routed = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
  return rules.leafFor(routed)?.id ?? "unmatched";
}

/**
 * The route rules of the build being served, made once per build: the server's middleware all
 * ask this (development rebuilds the build as routes are edited, so it is looked up per call).
 */
export function rulesOfBuild(
  build: ServerBuild | (() => Promise<ServerBuild>),
): () => Promise<RouteRules> {
  const tables = new WeakMap<ServerBuild, RouteRules>();
  return async () => {
    const resolved = typeof build === "function" ? await build() : build;
    let table = tables.get(resolved);
    if (!table) {
      table = routeRules(resolved);
      tables.set(resolved, table);
    }
    return table;
  };
}
