import {
  DESKTOP,
  expect,
  fakeSignedIn,
  holdScripts,
  MOBILE,
  test,
  waitForHydration,
} from "./fixtures";

test.describe("navbar at desktop width", () => {
  test.use({ viewport: DESKTOP });

  test("shows Home, Pricing, Feedback, Download and, once loaded, Log in", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    await expect(nav.getByRole("link", { name: "Pricing" })).toHaveAttribute("href", "/pricing");
    await expect(nav.getByRole("link", { name: "Feedback" })).toHaveAttribute("href", "/feedback");
    await expect(nav.getByRole("link", { name: "Download", exact: true })).toHaveAttribute(
      "href",
      "/download",
    );
    await expect(nav.getByRole("link", { name: "Log in" })).toHaveAttribute("href", "/auth");
    await expect(nav.getByRole("link", { name: "Account" })).toHaveCount(0);
    // Legal is for the mobile menu only; the toggle itself is hidden at this width.
    await expect(page.getByRole("link", { name: "Legal", exact: true })).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  });

  test("shows neither Log in nor Account while the session check is pending", async ({ page }) => {
    let release: () => void = () => {};
    const pending = new Promise<void>((resolve) => (release = resolve));
    let asked: () => void = () => {};
    const checking = new Promise<void>((resolve) => (asked = resolve));
    await page.route("**/api/session", async (route) => {
      asked();
      await pending;
      await route.fulfill({ json: { user: null } });
    });
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Pricing" })).toBeVisible();
    // The check is asked for after hydration: from then on the navbar is in its pending state
    // until the answer comes, which it does not before `release()`.
    await checking;
    await expect(nav.getByRole("link", { name: "Log in" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Account" })).toHaveCount(0);
    release();
    await expect(nav.getByRole("link", { name: "Log in" })).toBeVisible();
  });

  test("shows Account and no Log in when signed in", async ({ page }) => {
    await fakeSignedIn(page);
    await page.goto("/pricing");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Account" })).toHaveAttribute("href", "/account");
    await expect(nav.getByRole("link", { name: "Log in" })).toHaveCount(0);
  });

  test("marks the current page and navigates without a full reload", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Pricing" }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(nav.getByRole("link", { name: "Pricing" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  });

  test("links to every legal page from the footer", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("navigation", { name: "Legal" });
    for (const slug of ["terms", "privacy", "refund", "shipping", "cookies", "contact"]) {
      await expect(footer.locator(`a[href="/legal/${slug}"]`)).toHaveCount(1);
    }
  });
});

test.describe("navbar at mobile width", () => {
  test.use({ viewport: MOBILE });

  test("hides the links behind a menu that toggles open and closed", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeHidden();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }),
    ).toBeHidden();

    await toggle.click();
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await expect(menu.getByRole("link", { name: "Home" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Pricing" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Feedback" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Legal" })).toHaveAttribute("href", "/legal");
    // The browsers these tests run say Linux: no installer for it, so a plain "Download".
    await expect(menu.getByRole("link", { name: "Download", exact: true })).toHaveAttribute(
      "href",
      "/download",
    );
    await expect(menu.getByRole("link", { name: "Log in" })).toBeVisible();

    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();
  });

  test("closes the menu on navigation", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await menu.getByRole("link", { name: "Feedback" }).click();
    await expect(page).toHaveURL(/\/feedback$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  test("the menu works before the page's scripts have run, and React takes it over open", async ({
    page,
  }) => {
    const releaseScripts = await holdScripts(page);
    await page.goto("/", { waitUntil: "domcontentloaded" });
    expect(await page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(false);

    const toggle = page.getByRole("button", { name: "Open menu" });
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu.getByRole("link", { name: "Pricing" })).toBeVisible();
    // The browser, not a stale attribute from the server, says whether it is expanded.
    await expect(toggle).not.toHaveAttribute("aria-expanded", /.*/);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();

    await toggle.click();
    await expect(menu).toBeVisible();
    releaseScripts();
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await expect(menu).toBeVisible();
    // A tap outside closes it, and React follows.
    const panel = await menu.locator("xpath=..").boundingBox();
    await page.mouse.click(20, (panel?.y ?? 0) + (panel?.height ?? 0) + 40);
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  test("shows Account instead of Log in when signed in", async ({ page }) => {
    await fakeSignedIn(page);
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu.getByRole("link", { name: "Account" })).toHaveAttribute("href", "/account");
    await expect(menu.getByRole("link", { name: "Log in" })).toHaveCount(0);
  });
});

test.describe("navbar at mobile width in a browser without the Popover API", () => {
  test.use({ viewport: MOBILE });

  test("React opens and closes the menu itself", async ({ page }) => {
    // Safari before 17 and Chrome before 114 have no popover methods and ignore the attribute:
    // the methods are removed, and the attribute is taken out of the page as served.
    await page.addInitScript(() => {
      for (const name of ["showPopover", "hidePopover", "togglePopover"])
        delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
    });
    await page.route("/", async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      expect(html).toContain(' popover="auto"');
      await route.fulfill({ response, body: html.replace(' popover="auto"', "") });
    });
    await page.goto("/");
    await waitForHydration(page);
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await expect(menu.getByRole("link", { name: "Pricing" })).toBeVisible();
    await menu.getByRole("link", { name: "Feedback" }).click();
    await expect(page).toHaveURL(/\/feedback$/);
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible();
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();
  });
});

test.describe("navbar at mobile width without JavaScript", () => {
  test.use({ viewport: MOBILE, javaScriptEnabled: false });

  test("the footer's Log in link reaches the log-in form (issue 34)", async ({ page }) => {
    await page.goto("/pricing");
    await page
      .getByRole("navigation", { name: "Your account" })
      .getByRole("link", { name: "Log in" })
      .click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("textbox", { name: "Email" })).toBeVisible();
  });

  test("the menu opens, and its links are ordinary links", async ({ page }) => {
    await page.goto("/");
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await menu.getByRole("link", { name: "Pricing" }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(menu).toBeHidden();
  });
});
