import type { Page } from "@playwright/test";
import { E2E_LAYOUT_ADMIN_EMAIL } from "./env";
import { MOBILE, expect, signUpAndVerify, test, uniqueEmail } from "./fixtures";

/**
 * Issue 11: no page is wider than a 390 px phone. Every route people can open, anonymous,
 * signed in and as an admin; each is measured after hydration.
 */
const PUBLIC = [
  "/",
  "/landing",
  "/pricing",
  "/download",
  "/download/history",
  "/blog",
  "/blog/welcome-to-pinout-blog",
  "/feedback",
  "/search?q=uart",
  "/about",
  "/legal",
  "/legal/privacy",
  "/legal/terms",
  "/auth",
  "/auth?view=signup",
  "/auth?view=forgot",
  "/no-such-page",
];
const SIGNED_IN = [
  "/account",
  "/account/usage",
  "/account/profile",
  "/account/security",
  "/account/subscription",
  "/billing",
  "/invoices",
  "/fix-subscription",
  "/checkout?plan=pro-monthly",
];
const ADMIN = [
  "/admin",
  "/admin/users",
  "/admin/subscriptions",
  "/admin/invoices",
  "/admin/releases",
  "/admin-fix-subscription",
];

async function widthOverflow(page: Page, path: string): Promise<string | null> {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  const overflow = await page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return null;
    // Name the first element that sticks out and is not inside something that scrolls sideways,
    // so a failure says where to look.
    const scrolls = (element: Element) =>
      ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(element).overflowX);
    const culprit = [...document.body.querySelectorAll("*")].find((element) => {
      if (element.getBoundingClientRect().right <= root.clientWidth + 1) return false;
      for (let parent = element.parentElement; parent; parent = parent.parentElement)
        if (scrolls(parent)) return false;
      return true;
    });
    const describe = (element: Element | undefined) =>
      element
        ? `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}">`
        : "?";
    return `${root.scrollWidth}px wide; ${describe(culprit)}`;
  });
  return overflow ? `${path}: ${overflow}` : null;
}

test.describe("no horizontal overflow at 390 px", () => {
  test.setTimeout(120_000);
  // The 404 page is among the pages measured: its status shows in the console.
  test.use({ allowConsoleErrors: /status of 404/ });

  test("on every public and account page", async ({ page }) => {
    const problems: string[] = [];
    await page.setViewportSize(MOBILE);
    for (const path of PUBLIC) {
      const problem = await widthOverflow(page, path);
      if (problem) problems.push(problem);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await signUpAndVerify(page, {
      name: "Wide",
      email: uniqueEmail("overflow"),
      password: "overflow-password-1",
    });
    await page.setViewportSize(MOBILE);
    for (const path of SIGNED_IN) {
      const problem = await widthOverflow(page, path);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });

  test("on every admin page", async ({ page }) => {
    await signUpAndVerify(page, {
      name: "Narrow Admin",
      email: E2E_LAYOUT_ADMIN_EMAIL,
      password: "overflow-password-1",
    });
    await page.setViewportSize(MOBILE);
    const problems: string[] = [];
    for (const path of ADMIN) {
      const problem = await widthOverflow(page, path);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });
});
