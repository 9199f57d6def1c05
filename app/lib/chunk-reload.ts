import { routerInternals } from "./router-internals";

/**
 * After a deploy, a tab opened before it may ask for code chunks that no longer exist.
 * Reloading fetches the new build; a per-path guard stops a reload loop if the chunk is really gone.
 */
export const RELOAD_GUARD_WINDOW_MS = 10_000;
const KEY_PREFIX = "chunk-reload:";

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|ChunkLoadError/i;

export function isChunkLoadError(reason: unknown): boolean {
  const message =
    reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "";
  return CHUNK_ERROR.test(message);
}

interface GuardStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** True when the page may reload for this path now (and records that it did). */
export function shouldReload(path: string, now: number, storage: GuardStorage): boolean {
  const key = KEY_PREFIX + path;
  const stored = storage.getItem(key);
  const last = stored === null ? Number.NaN : Number(stored);
  if (Number.isFinite(last) && now - last < RELOAD_GUARD_WINDOW_MS) return false;
  storage.setItem(key, String(now));
  return true;
}

/** Reloads the page for a chunk failure unless it already did so for this path within the window. */
export function reloadForChunkError(): boolean {
  const path = window.location.pathname;
  let allowed: boolean;
  try {
    allowed = shouldReload(path, Date.now(), window.sessionStorage);
  } catch {
    // Storage blocked: without a guard, a reload could loop, so do not reload.
    allowed = false;
  }
  // React Router's ScrollRestoration saves the scroll position in sessionStorage on unload and
  // restores it after the reload.
  if (allowed) window.location.reload();
  return allowed;
}

/** Where a client navigation in progress is going (React Router's router, framework mode). */
function pendingNavigationHref(): string | null {
  const target = routerInternals()?.router.state.navigation.location;
  return target ? target.pathname + target.search + target.hash : null;
}

/**
 * React Router's own reload when a route module fails to load during a navigation, routed
 * through the guard (vite/route-module-reload.ts patches the call). The first failure reloads the
 * page (a new deploy: the reload brings the new build). If this path already reloaded within the
 * window, the navigation is finished by the server instead (a full page load of the target), so
 * a click never reloads the same page over and over and never ends on an empty page.
 */
export function handleRouteModuleLoadFailure(error: unknown): Promise<never> {
  if (reloadForChunkError()) {
    // The page is going away; the navigation never finishes.
    return new Promise<never>(() => {});
  }
  const target = pendingNavigationHref();
  const here = window.location.pathname + window.location.search + window.location.hash;
  if (target !== null && target !== here) {
    window.location.assign(target);
    return new Promise<never>(() => {});
  }
  // No navigation to finish (a revalidation): the error boundary offers a reload.
  throw error instanceof Error ? error : new Error(String(error));
}
