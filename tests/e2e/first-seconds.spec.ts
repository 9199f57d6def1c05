/**
 * Issue 21, point 1: nothing appears under a visitor's finger after the page is visible. A
 * returning visitor (code in the browser cache) who has not made a cookie choice clicks or taps
 * the page's primary call to action the moment it is visible: every try reaches its target. The
 * cookie banner is in the server's HTML, in the page's flow, and works without JavaScript.
 */
import type { Browser, BrowserContextOptions, Page } from "@playwright/test";
import { DESKTOP, expect, expectNoAxeViolations, MOBILE, test } from "./fixtures";

// Tries per page and viewport: a tap that misses one time in four fails a page's eight tries nine
// times in ten (1 − 0.75⁸), and such a fault shows on several of the eight page and viewport pairs.
const TRIES = 8;

interface Target {
  path: string;
  /** The primary call to action. */
  cta: (page: Page) => ReturnType<Page["getByRole"]>;
  /** Where it leads, or "download" for a file. */
  reaches: RegExp | "download";
}

const TARGETS: Target[] = [
  {
    path: "/",
    cta: (page) =>
      page
        .getByRole("main")
        .getByRole("link", { name: /^Download/ })
        .first(),
    reaches: /\/download$/,
  },
  {
    path: "/pricing",
    cta: (page) => page.getByRole("link", { name: "Choose Pro monthly" }),
    reaches: /\/auth\?/,
  },
  {
    path: "/landing",
    cta: (page) => page.getByRole("link", { name: /^Download .* free$/ }),
    reaches: /\/download$/,
  },
  {
    path: "/download",
    cta: (page) =>
      page
        .getByRole("main")
        .getByRole("link", { name: /^Download for/ })
        .first(),
    reaches: "download",
  },
];

const VIEWPORTS: { name: string; options: BrowserContextOptions }[] = [
  { name: "desktop 1280×720", options: { viewport: { width: DESKTOP.width, height: 720 } } },
  { name: "phone 390×844 (touch)", options: { viewport: MOBILE, hasTouch: true, isMobile: true } },
];

/** A context whose cache is warm (one visit of each page), with no cookie choice made. */
async function returningVisitor(browser: Browser, options: BrowserContextOptions) {
  const context = await browser.newContext({ ...options, acceptDownloads: true });
  const page = await context.newPage();
  for (const target of TARGETS) await page.goto(target.path, { waitUntil: "load" });
  await context.clearCookies();
  return { context, page };
}

for (const viewport of VIEWPORTS) {
  test(`the primary action works the moment it is visible (${viewport.name})`, async ({
    browser,
  }) => {
    test.slow();
    const { context, page } = await returningVisitor(browser, viewport.options);
    const touch = viewport.options.hasTouch === true;
    try {
      for (const target of TARGETS) {
        let reached = 0;
        for (let i = 0; i < TRIES; i++) {
          await page.goto(target.path, { waitUntil: "commit" });
          const cta = target.cta(page);
          await cta.waitFor({ state: "visible" });
          const download = target.reaches === "download" ? page.waitForEvent("download") : null;
          if (touch) await cta.tap();
          else await cta.click();
          if (download) {
            await download;
            reached += 1;
          } else {
            await page.waitForURL(target.reaches as RegExp, { timeout: 5_000 }).then(
              () => (reached += 1),
              () => undefined,
            );
          }
        }
        expect(reached, `${target.path}: tries that reached the target`).toBe(TRIES);
      }
    } finally {
      await context.close();
    }
  });
}

test.describe("the cookie banner", () => {
  // The second half blocks the page's scripts on purpose.
  test.use({ allowConsoleErrors: /Failed to load resource|net::ERR_FAILED/ });

  test("is in the page before any script and hidden before the first paint once chosen", async ({
    page,
  }) => {
    // The server's HTML carries it, so it is there from the first paint.
    const html = await (await page.request.get("/pricing")).text();
    expect(html).toContain('id="consent-banner"');
    await page.goto("/pricing");
    await expect(page.getByRole("region", { name: "Cookie consent" })).toBeVisible();
    await expectNoAxeViolations(page);

    // With a choice in the cookie it is never seen, not even before the scripts run.
    await page.context().addCookies([{ name: "consent", value: "denied", url: page.url() }]);
    await page.route("**/*.js", (route) => route.abort());
    await page.goto("/pricing", { waitUntil: "domcontentloaded" });
    await expect(page.locator("#consent-banner")).toBeHidden();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    for (const [button, choice] of [
      ["Accept analytics", "granted"],
      ["Decline", "denied"],
    ] as const) {
      test(`"${button}" posts the choice and comes back to the page`, async ({ page }) => {
        await page.goto("/search?q=flash");
        await page
          .getByRole("region", { name: "Cookie consent" })
          .getByRole("button", { name: button })
          .click();
        await expect(page).toHaveURL(/\/search\?q=flash$/);
        const cookies = await page.context().cookies();
        expect(cookies.find((cookie) => cookie.name === "consent")?.value).toBe(choice);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      });
    }
  });
});
