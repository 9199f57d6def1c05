import type { Page } from "@playwright/test";
import {
  DESKTOP,
  MOBILE,
  expect,
  expectNoAxeViolations,
  fakeSignedIn,
  test,
  waitForHydration,
} from "./fixtures";

/** Issue 11, points 8, 9 and 10: the navbar's download label, Blog and search, and "Log in". */

const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

/** Hydrated (the desktop links that fixtures' waitForHydration looks for are hidden here). */
async function waitForMobileHydration(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => "__reactRouterRouteModules" in window);
  // The session check runs only in the browser: its link exists once React has taken over.
  await expect(page.locator('header a[href="/auth"]').first()).toBeAttached();
}

async function openMobileMenu(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  return page.getByRole("navigation", { name: "Mobile" });
}

for (const [system, userAgent, label] of [
  ["Android", ANDROID, "Download"],
  ["iPhone", IPHONE, "Download"],
  ["Windows", WINDOWS, "Download for Windows"],
  ["Mac", MAC, "Download for Mac"],
] as const) {
  test.describe(`mobile menu on ${system}`, () => {
    test.use({ viewport: MOBILE, userAgent });

    test(`the download button says "${label}"`, async ({ page }) => {
      await page.goto("/");
      await waitForMobileHydration(page);
      const menu = await openMobileMenu(page);
      const download = menu.getByRole("link", { name: /^Download/ });
      await expect(download).toHaveText(label);
      await expect(download).toHaveAttribute("href", "/download");
    });
  });
}

test.describe("mobile menu", () => {
  test.use({ viewport: MOBILE });

  test("has Blog and a search that works", async ({ page }) => {
    await page.goto("/");
    await waitForMobileHydration(page);
    const menu = await openMobileMenu(page);
    await expect(menu.getByRole("link", { name: "Blog" })).toHaveAttribute("href", "/blog");
    await expectNoAxeViolations(page);

    const search = page.getByRole("search", { name: "Site search" });
    await search.getByLabel("Search the site").fill("uart");
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/search\?q=uart$/);
    await expect(page.getByText(/^\d+ results? for/)).toBeVisible();
    await expect(menu).toBeHidden();
  });

  test("marks Blog current on a post", async ({ page }) => {
    await page.goto("/blog/debugging-uart-with-a-serial-monitor");
    await waitForMobileHydration(page);
    const menu = await openMobileMenu(page);
    await expect(menu.getByRole("link", { name: "Blog" })).toHaveAttribute("aria-current", "page");
  });
});

test.describe("navbar at desktop width", () => {
  test.use({ viewport: DESKTOP });

  test("links Blog, current on the blog and on its posts", async ({ page }) => {
    const blog = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" });
    await page.goto("/");
    await expect(blog).toHaveAttribute("href", "/blog");
    await expect(blog).not.toHaveAttribute("aria-current");
    await page.goto("/blog");
    await expect(blog).toHaveAttribute("aria-current", "page");
    await page.goto("/blog/debugging-uart-with-a-serial-monitor");
    await expect(blog).toHaveAttribute("aria-current", "page");
  });

  test("Log in is the current page on the log-in view only", async ({ page }) => {
    const logIn = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Log in" });
    await page.goto("/auth?view=signup");
    await waitForHydration(page);
    await expect(logIn).not.toHaveAttribute("aria-current");
    await expect(logIn).not.toHaveClass(/text-green-400/);

    // Within the page, as people switch views.
    await page.getByRole("main").getByRole("link", { name: "Log in" }).click();
    await expect(page).toHaveURL(/view=login/);
    await expect(logIn).toHaveAttribute("aria-current", "page");
    await expect(logIn).toHaveClass(/text-green-400/);
    await page.getByRole("main").getByRole("link", { name: "Create an account" }).click();
    await expect(page).toHaveURL(/view=signup/);
    await expect(logIn).not.toHaveAttribute("aria-current");

    await page.goto("/auth");
    await waitForHydration(page);
    await expect(logIn).toHaveAttribute("aria-current", "page");
    await page.goto("/auth?view=forgot");
    await waitForHydration(page);
    await expect(logIn).not.toHaveAttribute("aria-current");
  });
});

test.describe("navbar at 768 px", () => {
  test.use({ viewport: { width: 768, height: 1024 } });

  test("fits on one line and still reaches search", async ({ page }) => {
    // Signed in: "Account" is the longer of the two auth links.
    await fakeSignedIn(page);
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Account" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Blog" })).toBeVisible();
    expect(
      await nav.evaluate((element) => element.scrollWidth - element.clientWidth),
    ).toBeLessThanOrEqual(0);
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);

    await nav.getByRole("link", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/search$/);
    await expect(page.getByRole("main").getByLabel("Search", { exact: true })).toBeVisible();
  });
});
