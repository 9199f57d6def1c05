import type { Page } from "@playwright/test";
import { DESKTOP, MOBILE, expect, expectNoAxeViolations, test } from "./fixtures";

/** Hydrated (the navbar's own check differs between the mobile and desktop menus). */
async function waitForHydration(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => "__reactRouterRouteModules" in window);
}

/** The page is no wider than the window: nothing makes people scroll sideways. */
async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const [name, viewport] of [
  ["mobile", MOBILE],
  ["desktop", DESKTOP],
] as const) {
  test.describe(`polish at ${viewport.width} px (${name})`, () => {
    test.use({ viewport });

    test("/download shows installer hashes short, with the full value and a copy button", async ({
      page,
    }) => {
      await page.goto("/download");
      await waitForHydration(page);
      await expectNoHorizontalOverflow(page);
      const files = page.getByRole("region", { name: "Files" });
      const summary = files.locator("summary").first();
      await expect(summary).toHaveText(/^[0-9a-f]{8}…[0-9a-f]{8}/);
      await summary.click();
      await expect(files.locator("details[open] code").first()).toHaveText(/^[0-9a-f]{64}$/);
      await expect(files.getByRole("button", { name: /^Copy the SHA-256/ }).first()).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await expectNoAxeViolations(page);
    });

    test("/feedback suggests the real latest version, labels the rating, checks before sending", async ({
      page,
    }) => {
      await page.goto("/feedback");
      await waitForHydration(page);
      await expect(page.getByLabel("App version (optional)")).toHaveAttribute(
        "placeholder",
        "1.0.0",
      );
      await expect(page.getByText("Excellent")).toBeVisible();
      await expect(page.getByRole("radio", { name: /5\s*Excellent/ })).toBeAttached();
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      await page.getByRole("button", { name: "Send feedback" }).click();
      await expect(page.getByText("Enter an email address like name@example.com.")).toBeVisible();
      expect(posts).toEqual([]);
      await expectNoHorizontalOverflow(page);
      await expectNoAxeViolations(page);
    });
  });
}
