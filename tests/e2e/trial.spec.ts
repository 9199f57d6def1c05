import { acceptAnalytics, flushEvents, recordEvents } from "./analytics-helpers";
import {
  DESKTOP,
  expect,
  expectNoAxeViolations,
  MOBILE,
  signUpAndVerify,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";

/**
 * Issue 36, point 1 in a browser, with axe at 1280 and 390 px: from pricing to a free Pro trial
 * without a card, then its countdown on the account page and Pro as the plan.
 */
test("a new customer starts the free Pro trial from pricing and sees its countdown", async ({
  page,
}) => {
  await signUpAndVerify(page, {
    name: "Ishaan",
    email: uniqueEmail("trial"),
    password: "trial-e2e-password-1",
  });
  const sent = await recordEvents(page);
  await page.setViewportSize(DESKTOP);
  await page.goto("/pricing");
  await waitForHydration(page);
  await acceptAnalytics(page);
  await page.getByRole("link", { name: /^Or try Pro free for \d+ days, no card$/ }).click();
  await expect(page).toHaveURL(/\/account\/subscription#upgrade$/);
  const offer = page.getByText(/^Or try Pro free for \d+ days: no card, nothing charged/);
  await expect(offer).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: /^Start the \d+-day free trial$/ }).click();
  await expect(page.getByRole("status").or(page.getByRole("alert")).first()).toContainText(
    /Your Pro trial is on until \d{1,2} [A-Z][a-z]{2} \d{4}\. Nothing is charged/,
  );
  const countdown = page.getByTestId("trial-countdown");
  await expect(countdown).toHaveText(
    /^Pro trial: \d+ days left, ends \d{1,2} [A-Z][a-z]{2} \d{4}$/,
  );
  await expect(page.getByTestId("current-plan")).toHaveText("Pro (free trial)");
  await expect(page.getByRole("button", { name: /free trial/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  // The catalogue's trial_start, once, after consent.
  await flushEvents(page);
  await expect
    .poll(() => sent.filter((event) => event.name === "trial_start").map((event) => event.params))
    .toEqual([{ plan_name: "Pro (monthly)", trial_days: expect.any(Number) }]);

  await page.setViewportSize(MOBILE);
  await page.reload();
  await waitForHydration(page);
  await expect(countdown).toBeVisible();
  await expectNoAxeViolations(page);

  // Back on pricing during the trial (issue 54): buying Pro is on offer (not "Manage your
  // subscription", which there is none of), and a second trial is not.
  await page.goto("/pricing");
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "Choose Pro monthly" })).toHaveAttribute(
    "href",
    "/checkout?plan=pro-monthly",
  );
  await expect(page.getByRole("link", { name: "Manage your subscription" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Or try Pro free/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
