import type { Plugin } from "vite";

/**
 * React Router reloads the page by itself when a route module fails to load during a client
 * navigation (`loadRouteModule` in react-router's dist), with no loop guard: a module that keeps
 * failing reloads the page on every click. This rewrites that one call in the client bundle so it
 * asks `window.__routeModuleLoadFailed` (installed by app/lib/global-errors.ts, backed by the
 * once-per-path-in-10-s guard of app/lib/chunk-reload.ts) before reloading.
 *
 * The build fails if React Router's code no longer has the expected shape, so an upgrade cannot
 * silently drop the guard (decision record 0021).
 */
export const ROUTE_MODULE_HOOK = "__routeModuleLoadFailed";

const MARKER = "Error loading route module";
// From the log line to the reload, inside loadRouteModule's catch block (`catch (error)`).
const RELOAD_AFTER_MARKER =
  /(Error loading route module[\s\S]{0,600}?)window\.location\.reload\(\);/;

export function patchRouteModuleReload(code: string): string | null {
  if (!code.includes(MARKER)) return null;
  if (!RELOAD_AFTER_MARKER.test(code) || !/catch \(error\)/.test(code)) {
    throw new Error(
      "route-module-reload: React Router's loadRouteModule changed shape; update vite/route-module-reload.ts",
    );
  }
  return code.replace(
    RELOAD_AFTER_MARKER,
    `$1if (typeof window.${ROUTE_MODULE_HOOK} === "function") return window.${ROUTE_MODULE_HOOK}(error);\n    window.location.reload();`,
  );
}

export function routeModuleReloadPlugin(): Plugin {
  let patched = 0;
  return {
    name: "pinout:route-module-reload",
    apply: "build",
    enforce: "pre",
    transform(code, id, options) {
      if (options?.ssr || !id.includes("/node_modules/react-router/dist/")) return null;
      const result = patchRouteModuleReload(code);
      if (result === null) return null;
      patched += 1;
      return { code: result, map: null };
    },
    buildEnd(error) {
      // The client build must have patched React Router; the server build never loads it.
      if (!error && this.environment?.name === "client" && patched === 0) {
        this.error("route-module-reload: React Router's loadRouteModule was not found");
      }
    },
  };
}
