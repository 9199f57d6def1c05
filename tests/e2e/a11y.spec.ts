import {
  axeViolations,
  DESKTOP,
  expect,
  expectNoAxeViolations,
  MOBILE,
  test,
  waitForHydration,
} from "./fixtures";

/** Every page that renders for an anonymous visitor. */
const PAGES = [
  "/",
  "/landing",
  "/pricing",
  "/download",
  "/feedback",
  "/search",
  "/blog",
  "/blog/welcome-to-pinout-blog",
  "/about",
  "/legal",
  "/legal/terms",
  "/legal/refund",
  "/legal/contact",
  "/legal/cookies",
  "/legal/privacy",
  "/legal/shipping",
  "/auth",
  "/auth?view=signup",
  "/auth?view=forgot",
  "/search?q=uart",
];

test.describe("accessibility at desktop width", () => {
  test.use({ viewport: DESKTOP });
  for (const path of PAGES) {
    test(`${path} has no axe violations`, async ({ page }) => {
      await page.goto(path);
      // Hydrated: what scripts add to the page (the navbar's session state) is there.
      await waitForHydration(page);
      await expectNoAxeViolations(page);
    });
  }
});

test.describe("accessibility at mobile width", () => {
  test.use({ viewport: MOBILE });
  test("the home page with the menu open has no axe violations", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Open menu" }).click();
    await expectNoAxeViolations(page);
  });
});

test("the check itself reports a violation, on a page that already ran axe too", async ({
  page,
}) => {
  // Without this, a check that silently ran no rules would pass every page above.
  await page.setContent(
    `<!doctype html><html lang="en"><head><title>probe</title></head><body><main><h1>Probe</h1>
      <p style="color:#777;background:#888">Low contrast</p></main></body></html>`,
  );
  expect(await axeViolations(page)).toEqual([expect.stringMatching(/^color-contrast: .*\(p\)$/)]);
  // axe is injected once per document: a second check on it runs again and sees the change.
  await page.evaluate(() => document.querySelector("main")!.append(document.createElement("img")));
  expect(await axeViolations(page)).toEqual([
    expect.stringMatching(/^color-contrast: /),
    expect.stringMatching(/^image-alt: .*\(img\)$/),
  ]);
});
