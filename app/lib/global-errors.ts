import { track } from "./analytics/client";
import {
  handleRouteModuleLoadFailure,
  isChunkLoadError,
  reloadForChunkError,
} from "./chunk-reload";

declare global {
  interface Window {
    /** Called by React Router when a route module fails to load (vite/route-module-reload.ts). */
    __routeModuleLoadFailed?: (error: unknown) => Promise<never>;
  }
}

function describe(reason: unknown): string {
  if (reason instanceof Error) return `${reason.name}: ${reason.message}`.slice(0, 500);
  return String(reason).slice(0, 500);
}

/** Reports uncaught errors and rejections to analytics, and recovers from stale code chunks. */
export function installGlobalErrorHandlers(): void {
  window.__routeModuleLoadFailed = handleRouteModuleLoadFailure;
  window.addEventListener("vite:preloadError", (event) => {
    if (reloadForChunkError()) event.preventDefault();
  });

  window.addEventListener("error", (event) => {
    // Resource load errors (an <img> 404) arrive here without an error object; skip them.
    if (!(event instanceof ErrorEvent)) return;
    if (isChunkLoadError(event.error ?? event.message) && reloadForChunkError()) return;
    track("exception", {
      error_type: "javascript_error",
      description: describe(event.error ?? event.message),
      location: window.location.pathname,
      fatal: false,
    });
  });

  window.addEventListener("unhandledrejection", (event) => {
    if (isChunkLoadError(event.reason) && reloadForChunkError()) return;
    track("exception", {
      error_type: "unhandled_promise_rejection",
      description: describe(event.reason),
      location: window.location.pathname,
      fatal: false,
    });
  });
}
