import type { DataRouteObject } from "react-router";

/**
 * Everything the site reads of React Router's private browser globals, in one place (issue 21).
 * Two features need them and React Router has no public API for either:
 * - prefetch on intent with at most 4 pending (app/lib/prefetch.ts): the public `prefetch="intent"`
 *   cannot cap the number in flight, so it reads the route tree, the manifest and the loaded
 *   modules to build the same links React Router would;
 * - the chunk-reload guard (app/lib/chunk-reload.ts): where a navigation that failed to load its
 *   module was going.
 * `router-internals.test.ts` checks that the installed React Router still writes these names, and
 * `tests/e2e/prefetch.spec.ts` that they are there after hydration: an upgrade that changes them
 * fails loudly instead of silently turning the features off.
 */
export const ROUTER_GLOBALS = [
  "__reactRouterDataRouter",
  "__reactRouterManifest",
  "__reactRouterRouteModules",
  "__reactRouterContext",
] as const;

/** An entry of React Router's browser manifest (`window.__reactRouterManifest.routes`). */
export interface ManifestRoute {
  module: string;
  imports?: string[];
  css?: string[];
  hasLoader: boolean;
  hasClientLoader?: boolean;
}

export interface RouterInternals {
  router: {
    routes: DataRouteObject[];
    basename?: string;
    state: { navigation: { location?: { pathname: string; search: string; hash: string } } };
  };
  manifest: Record<string, ManifestRoute | undefined>;
  loadedModules: Record<string, { shouldRevalidate?: unknown } | undefined>;
  trailingSlashAware: boolean | undefined;
}

interface Globals {
  __reactRouterDataRouter?: RouterInternals["router"];
  __reactRouterManifest?: { routes: RouterInternals["manifest"] };
  __reactRouterRouteModules?: RouterInternals["loadedModules"];
  __reactRouterContext?: { future?: { v8_trailingSlashAwareDataRequests?: boolean } };
}

/** React Router's internals in this tab, or null before hydration (or if an upgrade moved them). */
export function routerInternals(): RouterInternals | null {
  if (typeof window === "undefined") return null;
  const globals = window as unknown as Globals;
  const router = globals.__reactRouterDataRouter;
  const manifest = globals.__reactRouterManifest?.routes;
  const loadedModules = globals.__reactRouterRouteModules;
  if (!router || !Array.isArray(router.routes) || !manifest || !loadedModules) return null;
  return {
    router,
    manifest,
    loadedModules,
    trailingSlashAware: globals.__reactRouterContext?.future?.v8_trailingSlashAwareDataRequests,
  };
}
