/**
 * Issue 24 in the browser: the funnel's joins start here (a sign-up sends its event, the site
 * gives the analytics id in a signed cookie only after consent), and the operator's page passes
 * axe and fits a phone.
 */
import { linkFromMail } from "../support/mail";
import { acceptAnalytics, flushEvents, recordEvents } from "./analytics-helpers";
import { E2E_COCKPIT_ADMIN_EMAIL, E2E_DATA_DIR } from "./env";
import {
  expect,
  expectNoAxeViolations,
  MOBILE,
  signUpAndVerify,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";

const PASSWORD = "cockpit-password-1";

/** The verification link mailed to `email` (linkFromMail waits for it). */
const mailLink = (email: string) => linkFromMail(E2E_DATA_DIR, email, "/api/auth/verify-email");

test("a consented sign-up is counted, the site gives the analytics id, and withdrawing consent forgets it", async ({
  page,
}) => {
  const sent = await recordEvents(page);
  await page.goto("/auth?view=signup");
  await waitForHydration(page);
  await acceptAnalytics(page);
  const email = uniqueEmail("funnel");
  await page.getByLabel("Name").fill("Funnel");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(`we sent a confirmation link to ${email}`)).toBeVisible();
  await flushEvents(page);
  await expect
    .poll(() => sent.filter((event) => event.name === "form_submit").map((event) => event.params))
    .toContainEqual({ form_name: "sign_up", success: true });
  await page.goto(await mailLink(email));
  await expect(page).toHaveURL(/\/account$/);

  await page.goto("/checkout?plan=pro-monthly");
  await waitForHydration(page);
  // The id is the site's: a signed cookie set with the first batch after consent (issue 32,
  // point 11). The checkout form carries none; the server reads the cookie.
  const analyticsCookie = async () =>
    (await page.context().cookies()).find((cookie) => cookie.name === "pinout_aid")?.value ?? "";
  await expect.poll(analyticsCookie).toMatch(/^[0-9a-f-]{36}\.[\w-]+$/);
  await expect(page.locator('input[name="analytics_id"]')).toHaveCount(0);

  // Withdrawn consent on the cookie policy page: the id is forgotten at once.
  await page.goto("/legal/cookies");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Withdraw consent" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Analytics is off" })).toBeVisible();
  await expect.poll(analyticsCookie).toBe("");
});

test("the cockpit reads well on a desktop and on a phone", async ({ page }) => {
  await signUpAndVerify(page, {
    name: "Cockpit",
    email: E2E_COCKPIT_ADMIN_EMAIL,
    password: PASSWORD,
  });
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Admin" })
    .getByRole("link", { name: "Analytics" })
    .click();
  await expect(page).toHaveURL(/\/admin\/analytics$/);
  for (const name of ["Funnel", "Revenue", "Acquisition and content", "Product health"])
    await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  await expect(page.getByRole("table", { name: "Funnel steps" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Last 90 days" }).click();
  await expect(page).toHaveURL(/\?days=90$/);
  await expect(page.getByText(/\(90 days, India time\)/)).toBeVisible();
  await page.getByLabel("From", { exact: true }).fill("2026-01-01");
  await page.getByLabel("To", { exact: true }).fill("2026-01-31");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(
    page.getByText("1 January 2026 to 31 January 2026 (31 days, India time)"),
  ).toBeVisible();

  await page.setViewportSize(MOBILE);
  await page.goto("/admin/analytics");
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  await expectNoAxeViolations(page);
});
