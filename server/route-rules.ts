/**
 * What the server in front of React Router needs to know about a request's route, decided the way
 * React Router decides it: the path it routes on, and the route it will match (with React
 * Router's own `matchRoutes` over the build's route tree), whose `handle` says what applies
 * (app/lib/route-handle.ts). Route paths live in app/routes.ts only.
 */
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
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

export interface RouteRules {
  /** The handle of the route React Router matches for this path (its `.data` URL too). */
  handleFor(pathname: string): RouteHandle | undefined;
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

export function routeRules(build: ServerBuild): RouteRules {
  const tree = routeTree(build);
  return {
    handleFor(pathname) {
      // Single-fetch data requests (`/admin/releases.data`, `/_root.data`) run the same route.
      const routed = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
      const matches = matchRoutes(tree, routed, build.basename);
      const leaf = matches?.at(-1)?.route.id;
      if (!leaf) return undefined;
      return build.routes[leaf]?.module.handle as RouteHandle | undefined;
    },
  };
}
