import { expect, test, waitForHydration } from "./fixtures";

test.use({ allowConsoleErrors: /Failed to load resource|missing-chunk/ });

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

  await failChunk();
  await page.waitForTimeout(1_500);
  expect(loads).toBe(1);
});
