import type { Page } from "@playwright/test";
import { linkFromMail } from "../support/mail";
import { E2E_DATA_DIR, E2E_POLISH_ADMIN_EMAIL } from "./env";
import {
  DESKTOP,
  MOBILE,
  expect,
  expectNoAxeViolations,
  signUpAndVerify,
  test,
  uniqueEmail,
} from "./fixtures";

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

    test("the blog puts posts before a wall of tags, and a post ends with a next step", async ({
      page,
    }) => {
      await page.goto("/blog");
      await waitForHydration(page);
      const tags = page.getByRole("navigation", { name: "Filter by tag" });
      // "All posts" and the six most used tags; the rest behind "More tags".
      await expect(tags.getByRole("link", { includeHidden: false })).toHaveCount(7);
      await tags.getByText(/^More tags/).click();
      expect(await tags.getByRole("link").count()).toBeGreaterThan(7);
      await expectNoHorizontalOverflow(page);
      await page.getByRole("article").first().getByRole("link").first().click();
      const next = page.getByRole("complementary", { name: /^Try Pinout/ });
      await expect(next.getByRole("link", { name: "Download Pinout" })).toHaveAttribute(
        "href",
        "/download",
      );
      await expect(next.getByRole("link", { name: "See pricing" })).toBeVisible();
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

test.describe("sign-up form", () => {
  test("says a password rule once: the error replaces the hint", async ({ page }) => {
    await page.goto("/auth?view=signup");
    await page.waitForLoadState("networkidle");
    await expect(page).toHaveTitle(/^Sign up/);
    await expect(page.getByText("At least 8 characters.", { exact: true })).toBeVisible();
    await page.getByLabel("Name").fill("Short");
    await page.getByLabel("Email").fill("short@example.com");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("At least 8 characters.", { exact: true })).toHaveCount(0);
  });
});

test.describe("the buying path", () => {
  test("'Choose Pro yearly' carries the plan through sign-up and email confirmation to checkout", async ({
    page,
  }) => {
    const email = uniqueEmail("buyer");
    await page.goto("/pricing?billing=yearly");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Choose Pro yearly" }).click();
    await expect(page).toHaveURL(/view=signup/);
    await expect(
      page.getByText("You are signing up for Pro (yearly), ₹6,999 / year incl. GST."),
    ).toBeVisible();
    await expect(page).toHaveTitle(/^Sign up/);
    await page.getByLabel("Name").fill("Buyer");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("buyer-password-1");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText(`we sent a confirmation link to ${email}`)).toBeVisible();
    await page.goto(await linkFromMail(E2E_DATA_DIR, email, "/api/auth/verify-email"));
    await expect(page).toHaveURL(/\/checkout\?plan=pro-yearly$/);
    await expect(page.getByRole("heading", { name: "Subscribe to Pro (yearly)" })).toBeVisible();

    // Signed in on Free, pricing marks the plan and offers the upgrade directly.
    await page.goto("/pricing");
    const free = page.getByRole("region", { name: /^Free/ });
    await expect(free.getByText("Your current plan")).toBeVisible();
    await expect(free.getByRole("link", { name: "Download the app" })).toBeVisible();
    await expect(free.getByRole("link", { name: "Start free" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Upgrade to Pro monthly" })).toHaveAttribute(
      "href",
      "/checkout?plan=pro-monthly",
    );
    await expectNoAxeViolations(page);
  });
});

test.describe("first sign-in and the admin inbox", () => {
  test("a new account's overview says what to do next; the inbox uses the form's words", async ({
    page,
  }) => {
    await signUpAndVerify(page, {
      name: "Polish Admin",
      email: E2E_POLISH_ADMIN_EMAIL,
      password: "polish-password-1",
    });
    await expect(page.getByRole("heading", { name: "Get started with Pinout" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download the app" }).first()).toBeVisible();
    await page.setViewportSize(MOBILE);

    const sent = await page.request.post("/feedback", {
      form: {
        email: "a-very-long-address-for-testing@subdomain.example.com",
        category: "bug",
        message: "The pin map of the ESP32-S3 shows GPIO 47 twice.",
      },
      headers: { origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(302);
    await page.goto("/admin");
    const inbox = page.getByRole("region", { name: "Newest feedback" });
    await expect(inbox.getByText("Something is broken").first()).toBeVisible();
    await expect(inbox.getByRole("cell", { name: "bug", exact: true })).toHaveCount(0);
    const markRead = inbox.getByRole("button", { name: /^Mark read/ }).first();
    const box = await markRead.boundingBox();
    // One line of text: the button did not wrap.
    expect(box?.height ?? 100).toBeLessThan(40);
    await expectNoAxeViolations(page);
  });
});
