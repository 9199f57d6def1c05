import { E2E_ADMIN_EMAIL } from "./env";
import {
  expect,
  holdScripts,
  expectNoAxeViolations,
  signUpAndVerify,
  signUpThroughForm,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";

const PASSWORD = "solder-and-flux-42";

test("sign up, verify by email, see the account, sign out, log back in", async ({ page }) => {
  const email = uniqueEmail("maya");
  // The one journey through the sign-up form with JavaScript (the one without is below).
  await signUpThroughForm(page, { name: "Maya Iyer", email, password: PASSWORD });
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Account" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole("link", { name: "Log in" })).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL("/auth?next=%2Faccount");

  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/account$/);
});

test("Sign out works before the page's scripts have run", async ({ page }) => {
  const email = uniqueEmail("sita");
  await signUpAndVerify(page, { name: "Sita", email, password: PASSWORD });
  const releaseScripts = await holdScripts(page);
  await page.reload({ waitUntil: "domcontentloaded" });
  expect(await page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(false);

  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await page.goto("/account", { waitUntil: "domcontentloaded" });
  await expect(page).toHaveURL("/auth?next=%2Faccount");
  releaseScripts();
  await waitForHydration(page);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Log in" }),
  ).toBeVisible();
});

test.describe("a failed sign-in", () => {
  test.use({ allowConsoleErrors: /status of 401/ });
  test("shows the failure next to the form, and every field error", async ({ page }) => {
    await page.goto("/auth");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("Enter an email address like name@example.com.")).toBeVisible();
    await expect(page.getByText("Enter your password.")).toBeVisible();

    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert")).toHaveText("The email or password is not right.");
    await expectNoAxeViolations(page);
  });

  test("before the scripts run, Enter already signs in, and the password never goes in an address", async ({
    page,
  }) => {
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(request.url());
    });
    const releaseScripts = await holdScripts(page);
    await page.goto("/auth?view=signup", { waitUntil: "domcontentloaded" });
    await expect(page.getByRole("button", { name: "Create account" })).toBeEnabled();
    await page.goto("/auth", { waitUntil: "domcontentloaded" });
    await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByLabel("Password").press("Enter");
    // The server answered the post itself: no script had run.
    await expect(page.getByRole("alert")).toHaveText("The email or password is not right.");
    expect(documents.filter((url) => url.includes("password"))).toEqual([]);
    releaseScripts();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, allowConsoleErrors: /status of 401/ });
  // After a failed post the page comes back with the email kept (never the password).

  test("sign up, confirm, sign out, sign in, reset the password: every form works, none waits", async ({
    page,
  }) => {
    const email = uniqueEmail("noscript");
    for (const view of ["signup", "login", "forgot"]) {
      await page.goto(`/auth?view=${view}`);
      await expect(page.locator("button[disabled]"), view).toHaveCount(0);
    }
    await page.goto("/auth?view=signup");
    await page.getByLabel("Name").fill("No Script");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText(`we sent a confirmation link to ${email}`)).toBeVisible();
    const { linkFromMail } = await import("../support/mail");
    const { E2E_DATA_DIR } = await import("./env");
    const mailed = (contains: string) => linkFromMail(E2E_DATA_DIR, email, contains);
    await page.goto(await mailed("/api/auth/verify-email"));
    await expect(page).toHaveURL(/\/account$/);
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);

    await page.goto("/account");
    await expect(page).toHaveURL("/auth?next=%2Faccount");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByLabel("Password").press("Enter");
    await expect(page.getByRole("alert")).toHaveText("The email or password is not right.");
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("Password")).toHaveValue("");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);

    await page.goto("/auth?view=forgot");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    await expect(page.getByText("a reset link is on its way")).toBeVisible();
    await page.goto(await mailed("/api/auth/reset-password/"));
    await expect(page).toHaveURL(/view=reset/);
    await page.getByLabel("New password", { exact: true }).fill("a-new-bench-supply-7");
    await page.getByLabel("Repeat the new password").fill("a-new-bench-supply-7");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(
      page.getByText("Your password was changed. Log in with the new one."),
    ).toBeVisible();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a-new-bench-supply-7");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/account$/);
  });
});

test("ignores a ?next= that leaves the site", async ({ page }) => {
  const email = uniqueEmail("nina");
  await signUpAndVerify(page, { name: "Nina", email, password: PASSWORD });
  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/auth?next=https%3A%2F%2Fevil.example%2F");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/account$/);
});

test("resets a forgotten password by email", async ({ page }) => {
  const email = uniqueEmail("ravi");
  await signUpAndVerify(page, { name: "Ravi", email, password: PASSWORD });
  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/auth?view=forgot");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByText(`a reset link is on its way`)).toBeVisible();
  const { linkFromMail } = await import("../support/mail");
  const { E2E_DATA_DIR } = await import("./env");
  await page.goto(await linkFromMail(E2E_DATA_DIR, email, "/api/auth/reset-password/"));
  await expect(page).toHaveURL(/view=reset/);
  await waitForHydration(page);
  await page.getByLabel("New password", { exact: true }).fill("a-new-bench-supply-9");
  await page.getByLabel("Repeat the new password").fill("a-new-bench-supply-9");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Your password was changed. Log in with the new one.")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a-new-bench-supply-9");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/account$/);
});

test.describe("admin area for non-admins", () => {
  test.use({ allowConsoleErrors: /status of 403/ });
  test("a signed-in non-admin gets 403 inside the site's own header and footer", async ({
    page,
  }) => {
    await signUpAndVerify(page, { name: "Kiran", email: uniqueEmail("kiran"), password: PASSWORD });
    const response = await page.goto("/admin/users");
    expect(response?.status()).toBe(403);
    await expect(page).toHaveTitle("Forbidden | Pinout");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
  });
});

test.describe("admin area for admins", () => {
  test("an admin from ADMIN_EMAILS sees the admin pages without the site navbar", async ({
    page,
  }) => {
    await signUpAndVerify(page, { name: "Ops", email: E2E_ADMIN_EMAIL, password: PASSWORD });
    for (const path of [
      "/admin",
      "/admin/users",
      "/admin/subscriptions",
      "/admin-fix-subscription",
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
      // The dashboard's charts load after hydration: check them too, not only the page before.
      if (path === "/admin") await expect(page.locator(".recharts-surface").first()).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
      await expectNoAxeViolations(page);
    }
  });
});

test.describe("account pages", () => {
  test("every account page renders for a signed-in user with no axe violations", async ({
    page,
  }) => {
    await signUpAndVerify(page, { name: "Asha", email: uniqueEmail("asha"), password: PASSWORD });
    for (const path of [
      "/account",
      "/account/usage",
      "/account/profile",
      "/account/security",
      "/account/subscription",
      "/billing",
      "/invoices",
      "/fix-subscription",
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expectNoAxeViolations(page);
    }
  });
});
