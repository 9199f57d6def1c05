import { expect, test } from "./fixtures";

test.describe("the navbar's sign-in state", () => {
  test.use({ allowConsoleErrors: /status of 503/ });

  test("leaves loading when the session check fails, then catches up when it works again", async ({
    page,
  }) => {
    let calls = 0;
    await page.route("**/api/session", (route) => {
      calls += 1;
      // The HTTP client tries a failed GET once more: both attempts of the first check fail.
      return calls <= 2
        ? route.fulfill({ status: 503, body: "unavailable" })
        : route.fulfill({
            json: { user: { id: "u1", email: "maya@example.com", name: "Maya", role: "user" } },
          });
    });
    await page.goto("/pricing");
    const nav = page.getByRole("navigation", { name: "Main" });
    // The first check failed: signed out, not stuck.
    await expect(nav.getByRole("link", { name: "Log in" })).toBeVisible();
    // The retry in the background finds the session.
    await expect(nav.getByRole("link", { name: "Account" })).toBeVisible({ timeout: 10_000 });
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  test("a single 503 is retried at once by the HTTP client (spec section 8)", async ({ page }) => {
    let calls = 0;
    await page.route("**/api/session", (route) => {
      calls += 1;
      return calls === 1
        ? route.fulfill({ status: 503, headers: { "Retry-After": "0" }, body: "unavailable" })
        : route.fulfill({
            json: { user: { id: "u1", email: "maya@example.com", name: "Maya", role: "user" } },
          });
    });
    await page.goto("/pricing");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Account" })).toBeVisible();
    expect(calls).toBe(2);
  });
});
