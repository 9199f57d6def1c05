import { expect, test } from "./fixtures";

const TOAST = "A new version of this site is available:";

test("no toast while the server runs the build this tab loaded", async ({ page }) => {
  const checked = page.waitForResponse("**/version.json");
  await page.goto("/");
  await checked;
  await page.waitForTimeout(200);
  await expect(page.getByText(TOAST)).toHaveCount(0);
});

test("a new build on the server offers a reload, about 1 s after load", async ({ page }) => {
  await page.route("**/version.json", (route) =>
    route.fulfill({ json: { buildId: "a-newer-build", builtAt: new Date().toISOString() } }),
  );
  const started = Date.now();
  await page.goto("/pricing");
  const toast = page.getByRole("status").filter({ hasText: TOAST });
  await expect(toast).toBeVisible();
  expect(Date.now() - started).toBeGreaterThan(900);
  // Non-blocking: the page stays usable with the toast shown.
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Feedback" })
    .click();
  await expect(page).toHaveURL(/\/feedback$/);
  await expect(toast).toBeVisible();

  const reloaded = page.waitForEvent("load");
  await toast.getByRole("button", { name: "Reload" }).click();
  await reloaded;
});

test("checks again when the tab regains focus", async ({ page }) => {
  let buildId: string | null = null;
  await page.route("**/version.json", async (route) => {
    if (buildId === null) return route.continue();
    return route.fulfill({ json: { buildId, builtAt: new Date().toISOString() } });
  });
  const first = page.waitForResponse("**/version.json");
  await page.goto("/");
  await first;
  await expect(page.getByText(TOAST)).toHaveCount(0);
  buildId = "deployed-while-away";
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(page.getByText(TOAST)).toBeVisible();
});

test("never appears under the pointer: it waits until the pointer moves away", async ({ page }) => {
  await page.route("**/version.json", (route) =>
    route.fulfill({ json: { buildId: "a-newer-build", builtAt: new Date().toISOString() } }),
  );
  // The page's timers run on a clock the test can move on (time still passes as usual).
  await page.clock.install();
  await page.goto("/pricing");
  // The pointer rests where the notice would appear (the middle of the page, under the navbar).
  const viewport = page.viewportSize()!;
  await page.mouse.move(viewport.width / 2, 104);
  const toast = page.getByRole("status").filter({ hasText: TOAST });
  // The check has answered and the notice is in the page, held invisible under the pointer…
  await expect(toast.getByText(TOAST)).toBeAttached();
  await expect(toast.getByRole("button", { name: "Reload" })).toBeHidden();
  // …and stays so however often it looks again (every 500 ms) while the pointer rests.
  await page.clock.runFor(2_000);
  await expect(toast.getByRole("button", { name: "Reload" })).toBeHidden();
  await page.mouse.move(viewport.width / 2, viewport.height - 40);
  await expect(toast.getByRole("button", { name: "Reload" })).toBeVisible();
});
