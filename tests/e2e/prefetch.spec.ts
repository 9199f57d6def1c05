import type { Page, Request } from "@playwright/test";
import { pageTasksRun } from "./analytics-helpers";
import { DESKTOP, expect, test, waitForHydration } from "./fixtures";

/**
 * Spec section 9: navigation links fetch their page's code and data when someone shows intent
 * (hover, focus, touch), and at most 4 pages are fetched at once.
 */
test.use({ viewport: DESKTOP });

interface Manifest {
  __reactRouterManifest: { routes: Record<string, { module: string } | undefined> };
}

/** React Router discovers the routes of the links on a page after hydration (lazy discovery). */
async function waitForRoutes(page: Page, ids: string[]) {
  await page.waitForFunction(
    (wanted) =>
      wanted.every((id) => id in (window as unknown as Manifest).__reactRouterManifest.routes),
    ids,
  );
}

const pathOf = (request: Request) => new URL(request.url()).pathname;

test("hovering Pricing fetches its code and data before the click, then navigates in place", async ({
  page,
}) => {
  await page.goto("/");
  await waitForHydration(page);
  await waitForRoutes(page, ["routes/pricing"]);
  const moduleUrl = await page.evaluate(
    () => (window as unknown as Manifest).__reactRouterManifest.routes["routes/pricing"]?.module,
  );
  expect(moduleUrl).toMatch(/^\/assets\/.+\.js$/);
  const moduleRequest = page.waitForRequest((request) => pathOf(request) === moduleUrl);
  const dataRequest = page.waitForRequest((request) => pathOf(request) === "/pricing.data");
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

  const pricing = page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Pricing" });
  await pricing.hover();
  await Promise.all([moduleRequest, dataRequest]);

  await pricing.click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(pricing).toHaveAttribute("aria-current", "page");
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test("at most 4 pages are prefetched at once; the others wait their turn", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await waitForRoutes(page, [
    "routes/pricing",
    "routes/blog/index",
    "routes/feedback",
    "routes/download",
    "routes/auth/auth",
    "routes/about",
    "routes/legal/page",
  ]);
  await page.waitForLoadState("networkidle");

  // Each page's prefetch inserts one data link when it starts, and ends when its links have
  // loaded. The route modules are held (Chromium does not let tests intercept rel=prefetch
  // requests themselves), so no prefetch can end until they are released.
  const started = () =>
    page.evaluate(() =>
      [...document.head.querySelectorAll('link[rel="prefetch"][as="fetch"]')].map(
        (link) => new URL((link as HTMLLinkElement).href).pathname,
      ),
    );
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith("/assets/"),
    async (route) => {
      await released;
      await route.continue();
    },
  );

  const main = page.getByRole("navigation", { name: "Main" });
  const product = page.getByRole("navigation", { name: "Product" });
  const legal = page.getByRole("navigation", { name: "Legal" });
  // A resting pointer is intent too; the rest by keyboard focus.
  await main.getByRole("link", { name: "Pricing" }).hover();
  await expect.poll(started).toContain("/pricing.data");
  // Off every link, so scrolling to the footer cannot put another one under the pointer.
  await page.mouse.move(0, 0);
  for (const link of [
    main.getByRole("link", { name: "Blog" }),
    main.getByRole("link", { name: "Feedback" }),
    main.getByRole("link", { name: "Download", exact: true }),
    main.getByRole("link", { name: "Log in" }),
    product.getByRole("link", { name: "About us" }),
    legal.locator('a[href="/legal/terms"]'),
    legal.locator('a[href="/legal/privacy"]'),
  ]) {
    await link.focus();
  }

  await expect.poll(async () => (await started()).length).toBe(4);
  // Nothing finishes while the modules are held, so nothing more may start: the focus events'
  // handlers and the tasks they queued have all run by the time one more task has.
  await pageTasksRun(page);
  expect(await started(), "pages whose prefetch has started").toHaveLength(4);

  release();
  await expect
    .poll(async () => (await started()).sort())
    .toEqual(
      [
        "/pricing.data",
        "/blog.data",
        "/feedback.data",
        "/download.data",
        "/auth.data",
        "/about.data",
        "/legal/terms.data",
        "/legal/privacy.data",
      ].sort(),
    );
  await page.unrouteAll({ behavior: "wait" });
});

test("after hydration, React Router's internals that prefetching and the reload guard read are there", async ({
  page,
}) => {
  await page.goto("/");
  await waitForHydration(page);
  const shape = await page.evaluate(() => {
    const w = window as unknown as Record<string, Record<string, unknown> | undefined>;
    const router = w.__reactRouterDataRouter as
      { routes?: unknown; state?: { navigation?: unknown } } | undefined;
    return {
      routes: Array.isArray(router?.routes),
      navigation: typeof router?.state?.navigation === "object",
      manifest: typeof (w.__reactRouterManifest as { routes?: unknown } | undefined)?.routes,
      modules: typeof w.__reactRouterRouteModules,
      context: typeof w.__reactRouterContext,
    };
  });
  expect(shape).toEqual({
    routes: true,
    navigation: true,
    manifest: "object",
    modules: "object",
    context: "object",
  });
});
