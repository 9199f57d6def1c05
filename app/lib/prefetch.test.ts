import fc from "fast-check";
import type { DataRouteObject } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ManifestRoute } from "./router-internals";
import {
  createPrefetchQueue,
  dataHref,
  type PrefetchContext,
  PREFETCH_TIMEOUT_MS,
  prefetchLinks,
  prefetchOnIntent,
  prefetchPage,
} from "./prefetch";

/** Lets every settled promise run its callbacks. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Deferred {
  key: string;
  resolve(): void;
  reject(): void;
}

/** Tasks that stay running until the test settles them, recording the order they started in. */
function controlledTasks(queue: ReturnType<typeof createPrefetchQueue>, limit: number) {
  const started: string[] = [];
  const running: Deferred[] = [];
  let maxRunning = 0;
  const task = (key: string) => () =>
    new Promise<void>((resolve, reject) => {
      started.push(key);
      running.push({ key, resolve, reject: () => reject(new Error(`task ${key} failed`)) });
      maxRunning = Math.max(maxRunning, queue.running());
      expect(queue.running()).toBeLessThanOrEqual(limit);
    });
  const settle = (index: number, fail: boolean) => {
    const [deferred] = running.splice(index, 1);
    if (fail) deferred?.reject();
    else deferred?.resolve();
  };
  return { started, running, task, settle, maxRunning: () => maxRunning };
}

describe("createPrefetchQueue", () => {
  it("runs at most 4 at once, the rest in order as slots free up", async () => {
    const queue = createPrefetchQueue();
    const tasks = controlledTasks(queue, 4);
    for (const key of ["a", "b", "c", "d", "e", "f"]) queue.enqueue(key, tasks.task(key));
    expect(tasks.started).toEqual(["a", "b", "c", "d"]);
    expect(queue.running()).toBe(4);
    expect(queue.pending()).toBe(2);

    tasks.settle(1, false);
    await flush();
    expect(tasks.started).toEqual(["a", "b", "c", "d", "e"]);
    expect(queue.pending()).toBe(1);
  });

  it("ignores a key that is queued, running or done", async () => {
    const queue = createPrefetchQueue(1);
    const tasks = controlledTasks(queue, 1);
    expect(queue.enqueue("a", tasks.task("a"))).toBe(true);
    expect(queue.enqueue("b", tasks.task("b"))).toBe(true);
    expect(queue.enqueue("a", tasks.task("a"))).toBe(false);
    expect(queue.enqueue("b", tasks.task("b"))).toBe(false);
    tasks.settle(0, false);
    await flush();
    tasks.settle(0, false);
    await flush();
    expect(queue.enqueue("a", tasks.task("a"))).toBe(false);
    expect(tasks.started).toEqual(["a", "b"]);
    expect(queue.running()).toBe(0);
  });

  it("frees the slot of a task that rejects or throws", async () => {
    const queue = createPrefetchQueue(1);
    const ran: string[] = [];
    queue.enqueue("rejects", () => Promise.reject(new Error("offline")));
    queue.enqueue("throws", () => {
      throw new Error("bug");
    });
    queue.enqueue("last", async () => {
      ran.push("last");
    });
    await flush();
    expect(ran).toEqual(["last"]);
    expect(queue.running()).toBe(0);
    expect(queue.pending()).toBe(0);
  });

  it("never runs more than the limit, and runs every distinct key exactly once, in order", async () => {
    type Step = { kind: "enqueue"; key: string } | { kind: "settle"; pick: number; fail: boolean };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant("enqueue" as const), key: fc.constantFrom(..."abcdefghij") }),
      fc.record({ kind: fc.constant("settle" as const), pick: fc.nat(), fail: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.array(step, { maxLength: 60 }),
        async (limit, steps) => {
          const queue = createPrefetchQueue(limit);
          const tasks = controlledTasks(queue, limit);
          const enqueued: string[] = [];
          for (const next of steps) {
            if (next.kind === "enqueue") {
              if (queue.enqueue(next.key, tasks.task(next.key))) enqueued.push(next.key);
            } else if (tasks.running.length > 0) {
              tasks.settle(next.pick % tasks.running.length, next.fail);
            }
            await flush();
            expect(queue.running()).toBeLessThanOrEqual(limit);
            expect(queue.running()).toBe(tasks.running.length);
          }
          while (tasks.running.length > 0) {
            tasks.settle(0, false);
            await flush();
          }
          expect(tasks.maxRunning()).toBeLessThanOrEqual(limit);
          expect(enqueued).toEqual([...new Set(enqueued)]);
          expect(tasks.started).toEqual(enqueued);
          expect(queue.pending()).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("dataHref", () => {
  const at = (path: string) => new URL(path, "https://pinout.test");

  it.each([
    ["/", "/_root.data"],
    ["/?billing=yearly", "/_root.data?billing=yearly"],
    ["/pricing", "/pricing.data"],
    ["/pricing/", "/pricing.data"],
    ["/pricing?billing=yearly", "/pricing.data?billing=yearly"],
    ["/blog/some-post#intro", "/blog/some-post.data"],
    ["/search?q=uart%20baud", "/search.data?q=uart+baud"],
    ["/legal?index", "/legal.data"],
    ["/legal?index=2&a=b", "/legal.data?a=b&index=2"],
  ])("%s → %s", (path, expected) => {
    expect(dataHref(at(path))).toBe(expected);
  });

  it("handles a basename and trailing-slash-aware requests as React Router does", () => {
    expect(dataHref(at("/app/"), "/app/")).toBe("/app/_root.data");
    expect(dataHref(at("/app/pricing"), "/app/")).toBe("/app/pricing.data");
    expect(dataHref(at("/pricing/"), "/", true)).toBe("/pricing/_.data");
    expect(dataHref(at("/pricing"), "/", true)).toBe("/pricing.data");
  });
});

describe("prefetchLinks", () => {
  const routes: DataRouteObject[] = [
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/home", index: true },
        { id: "routes/pricing", path: "pricing" },
        { id: "routes/about", path: "about" },
        { id: "routes/blog/post", path: "blog/:slug" },
        { id: "routes/not-found", path: "*" },
      ],
    },
  ];
  const manifest: Record<string, ManifestRoute> = {
    root: { module: "/assets/root.js", imports: ["/assets/chunk-react.js"], hasLoader: true },
    "routes/home": { module: "/assets/home.js", hasLoader: true },
    "routes/pricing": {
      module: "/assets/pricing.js",
      imports: ["/assets/chunk-react.js", "/assets/chunk-plans.js"],
      css: ["/assets/pricing.css"],
      hasLoader: true,
    },
    "routes/about": { module: "/assets/about.js", hasLoader: false },
    "routes/blog/post": { module: "/assets/post.js", hasLoader: true, hasClientLoader: true },
    "routes/not-found": { module: "/assets/not-found.js", hasLoader: false },
  };
  const context = (overrides: Partial<PrefetchContext> = {}): PrefetchContext => ({
    routes,
    manifest,
    loadedModules: { root: {}, "routes/home": {} },
    location: { origin: "https://pinout.test", pathname: "/", search: "" },
    ...overrides,
  });

  it("asks for the modules, imports and CSS not loaded yet, and the page's data", () => {
    expect(prefetchLinks("/pricing?billing=yearly", context())).toEqual([
      { rel: "modulepreload", href: "/assets/pricing.js" },
      { rel: "modulepreload", href: "/assets/chunk-react.js" },
      { rel: "modulepreload", href: "/assets/chunk-plans.js" },
      { rel: "prefetch", as: "style", href: "/assets/pricing.css" },
      { rel: "prefetch", as: "fetch", href: "/pricing.data?billing=yearly" },
    ]);
  });

  it("still asks for data when every module is loaded (the root loader runs on every page)", () => {
    const loaded = context({
      loadedModules: { root: {}, "routes/about": {} },
      location: { origin: "https://pinout.test", pathname: "/pricing", search: "" },
    });
    expect(prefetchLinks("/", loaded)).toEqual([
      { rel: "modulepreload", href: "/assets/home.js" },
      { rel: "prefetch", as: "fetch", href: "/_root.data" },
    ]);
    expect(prefetchLinks("/about", loaded)).toEqual([
      { rel: "prefetch", as: "fetch", href: "/about.data" },
    ]);
  });

  it("names the routes to load when one of them has a client loader", () => {
    expect(prefetchLinks("/blog/hello", context())).toEqual([
      { rel: "modulepreload", href: "/assets/post.js" },
      { rel: "prefetch", as: "fetch", href: "/blog/hello.data?_routes=root" },
    ]);
  });

  it("does nothing for the page this tab is on, another site, or a path not discovered yet", () => {
    expect(prefetchLinks("/", context())).toBeNull();
    expect(prefetchLinks("/#faq", context())).toBeNull();
    expect(prefetchLinks("https://elsewhere.test/pricing", context())).toBeNull();
    // Only the catch-all matches: React Router has not fetched this path's routes yet.
    expect(prefetchLinks("/legal/terms", context())).toBeNull();
    const partial = context({ manifest: { root: manifest.root! } });
    expect(prefetchLinks("/pricing", partial)).toBeNull();
  });

  it("prefetches the same path with another query", () => {
    const here = context({
      location: { origin: "https://pinout.test", pathname: "/pricing", search: "" },
      loadedModules: { root: {}, "routes/pricing": {} },
    });
    expect(prefetchLinks("/pricing?billing=yearly", here)).toEqual([
      { rel: "prefetch", as: "fetch", href: "/pricing.data?billing=yearly" },
    ]);
  });
});

describe("prefetchPage and prefetchOnIntent in a browser", () => {
  /** Just enough of <link> for prefetchPage: what it sets, and its load/error callbacks. */
  class FakeLink {
    rel = "";
    as = "";
    href = "";
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    relList = { supports: (rel: string) => rel === "modulepreload" || rel === "prefetch" };
    getAttribute(name: string) {
      return name === "href" ? this.href : null;
    }
  }

  const pages = ["a", "b", "c", "d", "e", "f"];
  const routes: DataRouteObject[] = [
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/home", index: true },
        ...pages.map((page) => ({ id: `routes/${page}`, path: page })),
      ],
    },
  ];
  const manifest: Record<string, ManifestRoute> = {
    root: { module: "/assets/root.js", hasLoader: true },
    "routes/home": { module: "/assets/home.js", hasLoader: false },
    ...Object.fromEntries(
      pages.map((page) => [
        `routes/${page}`,
        { module: `/assets/${page}.js`, imports: ["/assets/shared.js"], hasLoader: false },
      ]),
    ),
  };

  let head: FakeLink[];
  let saveData: boolean;

  beforeEach(() => {
    head = [];
    saveData = false;
    vi.stubGlobal("window", {
      __reactRouterDataRouter: { routes },
      __reactRouterManifest: { routes: manifest },
      __reactRouterRouteModules: { root: {}, "routes/home": {} },
      location: { origin: "https://pinout.test", pathname: "/", search: "" },
      setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
      clearTimeout: (id: ReturnType<typeof setTimeout>) => clearTimeout(id),
    });
    vi.stubGlobal("navigator", {
      get connection() {
        return { saveData };
      },
    });
    vi.stubGlobal("document", {
      createElement: () => new FakeLink(),
      head: { append: (...links: FakeLink[]) => head.push(...links) },
      querySelectorAll: () => head,
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("inserts the links and resolves once each fired load or error", async () => {
    let done = false;
    const pending = prefetchPage("/a").then(() => (done = true));
    expect(head.map(({ rel, as, href }) => ({ rel, as, href }))).toEqual([
      { rel: "modulepreload", as: "", href: "/assets/a.js" },
      { rel: "modulepreload", as: "", href: "/assets/shared.js" },
      { rel: "prefetch", as: "fetch", href: "/a.data" },
    ]);
    head[0]!.onload?.();
    head[1]!.onerror?.();
    await flush();
    expect(done).toBe(false);
    head[2]!.onload?.();
    await pending;
  });

  it("skips links already in the document", async () => {
    const pending = prefetchPage("/b");
    expect(head.map((link) => link.href)).toEqual(["/assets/b.js", "/assets/shared.js", "/b.data"]);
    for (const link of head) link.onload?.();
    await pending;
    await prefetchPage("/b").then(() => expect(head).toHaveLength(3));
  });

  it("gives up waiting after 10 s", async () => {
    vi.useFakeTimers();
    let done = false;
    void prefetchPage("/c").then(() => (done = true));
    await vi.advanceTimersByTimeAsync(PREFETCH_TIMEOUT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it("does nothing when saving data, on the current page, or without React Router", async () => {
    saveData = true;
    await prefetchPage("/d");
    saveData = false;
    await prefetchPage("/");
    vi.stubGlobal("window", { location: { origin: "https://pinout.test", pathname: "/" } });
    await prefetchPage("/d");
    expect(head).toEqual([]);
  });

  it("keeps at most 4 pages in flight from intents", async () => {
    const dataLinks = () => head.filter((link) => link.href.includes(".data"));
    for (const page of ["/d", "/e", "/f", "/a?x=1", "/b?x=1"]) prefetchOnIntent(page);
    prefetchOnIntent("/d");
    expect(dataLinks().map((link) => link.href)).toEqual([
      "/d.data",
      "/e.data",
      "/f.data",
      "/a.data?x=1",
    ]);
    const ofD = ["/assets/d.js", "/assets/shared.js", "/d.data"];
    for (const link of head.filter((link) => ofD.includes(link.href))) link.onload?.();
    await flush();
    expect(dataLinks().map((link) => link.href)).toContain("/b.data?x=1");
    expect(dataLinks()).toHaveLength(5);
  });
});
