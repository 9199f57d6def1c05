import { expect, test, waitForHydration } from "./fixtures";

test.use({
  allowConsoleErrors:
    /Failed to load resource|missing-chunk|Error loading route module|Failed to fetch dynamically imported module/,
});

test("a failed code-chunk load reloads the page once per path within 10 s", async ({ page }) => {
  await page.goto("/pricing");
  await waitForHydration(page);
  let loads = 0;
  page.on("load", () => (loads += 1));
  const failChunk = () =>
    page.evaluate(() => {
      // An import nobody awaits: the rejection reaches the global handler like a lazy chunk would.
      void import(/* @vite-ignore */ `/assets/missing-chunk-${Date.now()}.js`);
    });

  await failChunk();
  await expect.poll(() => loads).toBe(1);
  await expect(page).toHaveURL(/\/pricing$/);

  // The second failure, within the window: once the site's handler has seen the rejection, it has
  // decided. A reload it asked for would have fired the Navigation API's `navigate` event (which
  // fires as `location.reload()` is called), so none fired means none was asked for.
  const navigations = await page.evaluate(async () => {
    const asked: string[] = [];
    const navigation = (window as unknown as { navigation: EventTarget }).navigation;
    const onNavigate = (event: Event) =>
      asked.push((event as Event & { navigationType: string }).navigationType);
    navigation.addEventListener("navigate", onNavigate);
    // Added after the site's own listener, so it runs once that one has returned.
    const seen = new Promise<void>((resolve) =>
      window.addEventListener("unhandledrejection", () => resolve(), { once: true }),
    );
    void import(/* @vite-ignore */ `/assets/missing-chunk-${Date.now()}.js`);
    await seen;
    navigation.removeEventListener("navigate", onNavigate);
    return asked;
  });
  expect(navigations).toEqual([]);
  expect(loads).toBe(1);
});

test("a route module that fails to load during navigation goes through the same guard", async ({
  page,
}) => {
  await page.goto("/");
  await waitForHydration(page);
  // Routes enter the browser's manifest as their links are discovered after hydration (React
  // Router's lazy route discovery), so /pricing's module may be known a moment later.
  const routeModule = () =>
    page.evaluate(
      () =>
        (
          window as unknown as {
            __reactRouterManifest: { routes: Record<string, { module: string }> };
          }
        ).__reactRouterManifest.routes["routes/pricing"]?.module ?? "",
    );
  await expect.poll(routeModule).toMatch(/^\/assets\/.+\.js$/);
  const moduleUrl = await routeModule();
  // As after a deploy: the tab asks for a route module the server no longer has.
  await page.route(`**${moduleUrl}`, (route) => route.fulfill({ status: 404, body: "gone" }));
  let loads = 0;
  page.on("load", () => (loads += 1));
  const nav = page.getByRole("navigation", { name: "Main" });

  await nav.getByRole("link", { name: "Pricing" }).click();
  await expect.poll(() => loads).toBe(1);
  await expect(page).toHaveURL(/\/$/);
  await waitForHydration(page);

  // Within 10 s of that reload the page does not reload again: the server finishes the
  // navigation with a full page load of /pricing instead.
  await nav.getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/pric|plan/i);
  await expect.poll(() => loads).toBe(2);
  expect(
    await page.evaluate(() => window.sessionStorage.getItem("chunk-reload:/pricing")),
  ).toBeNull();
});
