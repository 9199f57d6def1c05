import fs from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, default as AxeCore } from "axe-core";
import { test as base, expect, type Page } from "@playwright/test";
import { linkFromMail, linkFromPlainMail } from "../support/mail";
import { BASE_URL, E2E_DATA_DIR } from "./env";

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/**
 * Every test fails on a console error or a CSP violation in the page, so a broken script, a
 * hydration mismatch or a blocked resource never passes unnoticed. Tests that cause errors on
 * purpose list the messages they expect.
 */
export const test = base.extend<{ allowConsoleErrors: RegExp | null; consoleErrors: string[] }>({
  allowConsoleErrors: [null, { option: true }],
  consoleErrors: [
    async ({ page, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const text = message.text();
        if (allowConsoleErrors?.test(text)) return;
        errors.push(text);
      });
      page.on("pageerror", (error) => {
        if (!allowConsoleErrors?.test(error.message)) errors.push(`pageerror: ${error.message}`);
      });
      await use(errors);
      expect(errors, "console errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** What the checks ask of axe: WCAG 2.2 A and AA, and axe's best practices. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** axe-core's minified build, read once per worker. */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/**
 * The axe violations (WCAG 2.2 A/AA and best practices) of the page as it is now, one a line.
 *
 * axe runs in the page itself (the site has no frames; the check fails if one appears), as
 * @axe-core/playwright's legacy mode does, but injected once per document and minified: that
 * wrapper sends the 1.3 MB unminified build over the DevTools protocol twice per check, which was
 * over a third of a check's CPU time and most of the browser tests' (about 160 checks a run).
 * Only violations are read, so only they are gathered in full.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  expect(page.frames(), "axe runs in the top document only: this page has frames").toHaveLength(1);
  if ((await page.evaluate("typeof window.axe")) !== "object") await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate((tags) => {
    const axe = (window as unknown as { axe: typeof AxeCore }).axe;
    axe.configure({ allowedOrigins: ["<same_origin>"] });
    return axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    }) as Promise<AxeResults>;
  }, AXE_TAGS);
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
}

/** Zero axe violations on the page as it is now. */
export async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** Answers the navbar's session check as if someone were signed in. */
export async function fakeSignedIn(page: Page) {
  await page.route("**/api/session", (route) =>
    route.fulfill({
      json: { user: { id: "u1", email: "maya@example.com", name: "Maya", role: "user" } },
    }),
  );
}

/**
 * Resolves once React has hydrated the page: the navbar's session check only runs in the browser,
 * so "Log in" or "Account" appears only after hydration (in the desktop navbar, hidden at mobile
 * width but there all the same). The page is visible before its scripts have run (decision 0026),
 * so a test that presses a React-only button right after `goto` must wait for this first.
 */
export async function waitForHydration(page: Page) {
  await expect(
    page
      .getByRole("navigation", { name: "Main", includeHidden: true })
      .getByRole("link", { name: /^(Log in|Account)$/, includeHidden: true }),
  ).toBeAttached();
}

/**
 * Holds every script request until the returned function is called: the page is visible before
 * its scripts have run (decision record 0026), and this is how a test acts in that moment. The
 * held scripts hold the `load` event too: go to the page with `waitUntil: "domcontentloaded"`.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The verification link the server mailed to `email` (from the outbox), once it is there. */
function verificationLink(email: string): Promise<string> {
  return linkFromMail(E2E_DATA_DIR, email, "/api/auth/verify-email");
}

/**
 * A verified customer, signed in in this page's browser: the server creates the account and its
 * session as for anyone (the sign-up API the form posts to, then the mailed link), without typing
 * into the form. For tests of what comes after signing up; the journeys in auth.spec.ts sign up
 * through the form itself (`signUpThroughForm`).
 */
export async function signUpAndVerify(
  page: Page,
  user: { name: string; email: string; password: string },
) {
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { ...user, callbackURL: "/account" },
    headers: { origin: BASE_URL },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  // The browser context keeps the session cookie the link's answer sets.
  const verified = await page.request.get(await verificationLink(user.email), { maxRedirects: 0 });
  expect(verified.status()).toBe(302);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account$/);
}

/**
 * Signs up through the real page and opens the verification link as README's "First steps" says:
 * from the mail's plain .txt copy. The link is on the site's own origin, and opening it signs in.
 */
export async function signUpThroughForm(
  page: Page,
  user: { name: string; email: string; password: string },
) {
  await page.goto("/auth?view=signup");
  await waitForHydration(page);
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(`we sent a confirmation link to ${user.email}`)).toBeVisible();
  const link = await linkFromPlainMail(E2E_DATA_DIR, user.email, "/api/auth/verify-email");
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);
  await page.goto(link);
  await expect(page).toHaveURL(/\/account$/);
}

/** A unique address per test run, so tests never collide on one database. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}
