import {
  type ComponentProps,
  createElement,
  type FocusEvent,
  type MouseEvent,
  type SyntheticEvent,
  type TouchEvent,
  useEffect,
  useMemo,
  useRef,
} from "react";
import {
  createPath,
  type DataRouteObject,
  Link,
  matchRoutes,
  NavLink,
  type To,
  useResolvedPath,
} from "react-router";
import { type ManifestRoute, routerInternals } from "./router-internals";

/** Spec section 9 ("Link prefetch concurrency: 4 pending"): the site's own requests come first. */
export const PREFETCH_LIMIT = 4;
/** A pointer resting this long means it; one crossing the navbar does not (React Router's rule). */
export const INTENT_DELAY_MS = 100;
/** A prefetch that has not finished by then gives its slot to the next one. */
export const PREFETCH_TIMEOUT_MS = 10_000;

export interface PrefetchQueue {
  /** Runs `task` once for `key`: false (and nothing queued) when that key was seen before. */
  enqueue(key: string, task: () => Promise<unknown>): boolean;
  /** Queued, not started yet. */
  pending(): number;
  running(): number;
}

/** At most `limit` tasks at once, the rest in the order they came; each key runs once. */
export function createPrefetchQueue(limit = PREFETCH_LIMIT): PrefetchQueue {
  const seen = new Set<string>();
  const waiting: Array<() => Promise<unknown>> = [];
  let active = 0;

  const startNext = () => {
    while (active < limit) {
      const task = waiting.shift();
      if (!task) return;
      active += 1;
      const finished = () => {
        active -= 1;
        startNext();
      };
      // A task that throws at once, or rejects later, frees its slot all the same.
      new Promise<unknown>((resolve) => resolve(task())).then(finished, finished);
    }
  };

  return {
    enqueue(key, task) {
      if (seen.has(key)) return false;
      seen.add(key);
      waiting.push(task);
      startNext();
      return true;
    },
    pending: () => waiting.length,
    running: () => active,
  };
}

export interface PrefetchLink {
  rel: "modulepreload" | "prefetch";
  as?: "style" | "fetch";
  href: string;
}

/** What the browser knows: React Router's globals and where the tab is. */
export interface PrefetchContext {
  routes: DataRouteObject[];
  basename?: string;
  manifest: Record<string, ManifestRoute | undefined>;
  /** Route modules this tab has already loaded. */
  loadedModules: Record<string, { shouldRevalidate?: unknown } | undefined>;
  location: { origin: string; pathname: string; search: string };
  trailingSlashAware?: boolean;
}

/**
 * The URL React Router fetches a page's loader data from when navigating to `target`
 * (`singleFetchUrl` and `stripIndexParam` in react-router): the prefetch must use the very same
 * URL, or the navigation cannot use what was prefetched.
 */
export function dataHref(target: URL, basename = "/", trailingSlashAware = false): string {
  const url = new URL(target);
  const base = basename.replace(/\/+$/, "");
  if (trailingSlashAware) {
    url.pathname = url.pathname.endsWith("/") ? `${url.pathname}_.data` : `${url.pathname}.data`;
  } else if (url.pathname === "/") {
    url.pathname = "/_root.data";
  } else if (base !== "" && url.pathname.replace(/\/+$/, "") === base) {
    url.pathname = `${base}/_root.data`;
  } else {
    url.pathname = `${url.pathname.replace(/\/+$/, "")}.data`;
  }
  // React Router always rewrites the query this way, which also normalises its encoding.
  const index = url.searchParams.getAll("index").filter((value) => value !== "");
  url.searchParams.delete("index");
  for (const value of index) url.searchParams.append("index", value);
  return url.pathname + url.search;
}

/**
 * The links that fetch what a page needs and this tab lacks: route modules and their imports,
 * their CSS, and the loader data. Null when there is nothing to do: another site, the page this
 * tab is on, or a path whose routes React Router has not discovered yet (it would only match the
 * catch-all).
 */
export function prefetchLinks(to: string, context: PrefetchContext): PrefetchLink[] | null {
  const { location } = context;
  const url = new URL(to, location.origin);
  if (url.origin !== location.origin) return null;
  if (url.pathname === location.pathname && url.search === location.search) return null;
  const matches = matchRoutes(context.routes, url.pathname, context.basename);
  const leaf = matches?.at(-1);
  if (!matches || !leaf || leaf.route.path?.includes("*")) return null;

  const links: PrefetchLink[] = [];
  const loaderRoutes: string[] = [];
  let someRouteOptsOut = false;
  for (const { route } of matches) {
    const entry = context.manifest[route.id];
    if (!entry) return null;
    const loaded = context.loadedModules[route.id];
    if (!loaded) {
      for (const href of [entry.module, ...(entry.imports ?? [])]) {
        links.push({ rel: "modulepreload", href });
      }
      for (const href of entry.css ?? []) links.push({ rel: "prefetch", as: "style", href });
    }
    if (!entry.hasLoader) continue;
    // Such routes decide for themselves whether to load: React Router then names the others.
    if (entry.hasClientLoader || typeof loaded?.shouldRevalidate === "function") {
      someRouteOptsOut = true;
    } else {
      loaderRoutes.push(route.id);
    }
  }
  if (loaderRoutes.length > 0) {
    let href = dataHref(url, context.basename, context.trailingSlashAware);
    if (someRouteOptsOut) {
      const data = new URL(href, location.origin);
      data.searchParams.set("_routes", loaderRoutes.join(","));
      href = data.pathname + data.search;
    }
    links.push({ rel: "prefetch", as: "fetch", href });
  }
  const unique = new Map(links.map((link) => [link.href, link]));
  return [...unique.values()];
}

function browserContext(): PrefetchContext | null {
  const internals = routerInternals();
  if (!internals) return null;
  return {
    routes: internals.router.routes,
    basename: internals.router.basename,
    manifest: internals.manifest,
    loadedModules: internals.loadedModules,
    location: window.location,
    trailingSlashAware: internals.trailingSlashAware,
  };
}

function saveData(): boolean {
  const { connection } = navigator as Navigator & { connection?: { saveData?: boolean } };
  return connection?.saveData === true;
}

const supported = new Map<string, boolean>();
/** Safari ignores rel=prefetch: such a link would never fire load and would hold a slot. */
function supportsRel(rel: string): boolean {
  let known = supported.get(rel);
  if (known === undefined) {
    known = document.createElement("link").relList.supports(rel);
    supported.set(rel, known);
  }
  return known;
}

/** The links for `to` still missing from the document, or null when it should not be prefetched. */
function missingLinks(to: string): PrefetchLink[] | null {
  if (typeof window === "undefined" || saveData()) return null;
  const context = browserContext();
  const links = context && prefetchLinks(to, context);
  if (!links) return null;
  const present = new Set(
    [...document.querySelectorAll("link[href], script[src]")].map(
      (element) => element.getAttribute("href") ?? element.getAttribute("src"),
    ),
  );
  return links.filter((link) => !present.has(link.href) && supportsRel(link.rel));
}

/**
 * Fetches the code and data of the page at `to` into the browser's caches; resolves once every
 * link fired load or error, or after PREFETCH_TIMEOUT_MS.
 */
export function prefetchPage(to: string): Promise<void> {
  const links = missingLinks(to);
  if (!links || links.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let left = links.length;
    const timer = window.setTimeout(resolve, PREFETCH_TIMEOUT_MS);
    const elements = links.map((link) => {
      const element = document.createElement("link");
      element.rel = link.rel;
      if (link.as) element.as = link.as;
      element.href = link.href;
      element.onload = element.onerror = () => {
        element.onload = element.onerror = null;
        left -= 1;
        if (left > 0) return;
        window.clearTimeout(timer);
        resolve();
      };
      return element;
    });
    document.head.append(...elements);
  });
}

const pages = createPrefetchQueue(PREFETCH_LIMIT);

/** Queues a prefetch of the page at `to` (an absolute path), once per page load. */
export function prefetchOnIntent(to: string): void {
  // Not queued (so not marked done) while its routes are undiscovered: a later intent retries.
  if (missingLinks(to) === null) return;
  pages.enqueue(to, () => prefetchPage(to));
}

export interface IntentHandlers {
  onMouseEnter(event: MouseEvent<HTMLAnchorElement>): void;
  onMouseLeave(event: MouseEvent<HTMLAnchorElement>): void;
  onFocus(event: FocusEvent<HTMLAnchorElement>): void;
  onTouchStart(event: TouchEvent<HTMLAnchorElement>): void;
}

/** Handlers that prefetch `to` when someone shows they mean to follow the link. */
export function useIntentPrefetch(to: To): IntentHandlers {
  const href = createPath(useResolvedPath(to));
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useMemo(() => {
    const cancel = () => {
      window.clearTimeout(timer.current);
      timer.current = undefined;
    };
    const now = () => prefetchOnIntent(href);
    return {
      onMouseEnter: () => {
        cancel();
        timer.current = window.setTimeout(now, INTENT_DELAY_MS);
      },
      onMouseLeave: cancel,
      onFocus: now,
      onTouchStart: now,
    };
  }, [href]);
}

/** Theirs first; ours unless theirs prevented the default (as React Router composes them). */
function compose<E extends SyntheticEvent>(
  theirs: ((event: E) => void) | undefined,
  ours: (event: E) => void,
): (event: E) => void {
  return (event) => {
    theirs?.(event);
    if (!event.defaultPrevented) ours(event);
  };
}

function withIntent<P extends Partial<IntentHandlers>>(props: P, ours: IntentHandlers): P {
  return {
    ...props,
    onMouseEnter: compose(props.onMouseEnter, ours.onMouseEnter),
    onMouseLeave: compose(props.onMouseLeave, ours.onMouseLeave),
    onFocus: compose(props.onFocus, ours.onFocus),
    onTouchStart: compose(props.onTouchStart, ours.onTouchStart),
  };
}

/** React Router's Link that prefetches its page on intent, at most PREFETCH_LIMIT at once. */
export function PrefetchLink(props: ComponentProps<typeof Link>) {
  return createElement(Link, withIntent(props, useIntentPrefetch(props.to)));
}

/** React Router's NavLink that prefetches its page on intent, at most PREFETCH_LIMIT at once. */
export function PrefetchNavLink(props: ComponentProps<typeof NavLink>) {
  return createElement(NavLink, withIntent(props, useIntentPrefetch(props.to)));
}
