import { expect, expectNoAxeViolations, test, waitForHydration } from "./fixtures";

test.describe("error pages", () => {
  // The browser itself logs the failed document status as a console error.
  test.use({ allowConsoleErrors: /status of (404|500)/ });

  test("an unknown path shows the 404 page", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("Page Not Found | Pinout");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page does not exist");
    await expect(page.getByText("Page not found: /no-such-page")).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("a link to an unknown path shows the 404 page after client navigation", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.evaluate(() => {
      const link = document.createElement("a");
      link.href = "/blog/no-such-post";
      link.textContent = "broken";
      link.id = "broken-link";
      document.querySelector("main")?.append(link);
    });
    await page.locator("#broken-link").click();
    await expect(page).toHaveTitle("Page Not Found | Pinout");
    await expect(page.getByText("Page not found: /blog/no-such-post")).toBeVisible();
  });

  test("a server error shows the 500 page without details", async ({ page }) => {
    const response = await page.goto("/ops/error-probe");
    expect(response?.status()).toBe(500);
    await expect(page).toHaveTitle("Internal Server Error | Pinout");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Internal Server Error");
    await expect(page.locator("body")).not.toContainText("deliberate failure");
    await expectNoAxeViolations(page);
  });

  test("bots get a short plain-text status instead of an error page", async ({ request }) => {
    const response = await request.get("/no-such-page", {
      headers: {
        "user-agent": "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      },
    });
    expect(response.status()).toBe(404);
    expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("404 Not Found\n");
  });
});

test.describe("route guards", () => {
  for (const path of [
    "/account",
    "/account/security",
    "/billing",
    "/invoices",
    "/fix-subscription",
    "/admin",
    "/admin/users",
    "/admin/subscriptions",
    "/admin-fix-subscription",
  ]) {
    test(`${path} sends an anonymous visitor to sign-in and keeps where they were going`, async ({
      page,
    }) => {
      await page.goto(path);
      await expect(page).toHaveURL(`/auth?next=${encodeURIComponent(path)}`);
      await expect(page).toHaveTitle(/^Log in/);
    });
  }

  test("a client-side navigation to a guarded page is refused by the server too", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.evaluate(() => {
      const link = document.createElement("a");
      link.href = "/account/usage";
      link.textContent = "usage";
      link.id = "usage-link";
      document.querySelector("main")?.append(link);
    });
    await page.locator("#usage-link").click();
    await expect(page).toHaveURL("/auth?next=%2Faccount%2Fusage");
  });
});
