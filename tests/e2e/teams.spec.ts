import { linkFromMail } from "../support/mail";
import { E2E_DATA_DIR } from "./env";
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

const PASSWORD = "team-e2e-password-1";

/**
 * Issue 37 in a browser, with axe at 1280 and 390 px: a person creates a team with the company's
 * details, buys two Pro seats in Razorpay's window, invites a colleague, the colleague accepts in
 * their own browser and gets a seat, and the owner removes them.
 */
test("create a team, buy seats, invite a colleague who accepts in their own browser, remove them", async ({
  page,
  browser,
}) => {
  await signUpAndVerify(page, { name: "Priya", email: uniqueEmail("owner"), password: PASSWORD });
  await page.setViewportSize(DESKTOP);
  await page.goto("/account");
  await page.getByRole("link", { name: "Teams" }).first().click();
  await expect(page).toHaveURL(/\/account\/team$/);
  await waitForHydration(page);
  await expectNoAxeViolations(page);
  await page.getByLabel("Name or company name").fill("Kaveri Robotics Private Limited");
  await page.getByLabel("Address", { exact: true }).fill("14 Industrial Layout");
  await page.getByLabel("City").fill("Bengaluru");
  await page.getByLabel("PIN code").fill("560058");
  await page.getByLabel("State or union territory").selectOption({ label: "Karnataka" });
  await page.getByRole("button", { name: "Create the team" }).click();
  await expect(
    page.getByRole("heading", { name: "Kaveri Robotics Private Limited" }),
  ).toBeVisible();
  await expect(page.getByText("Your role: Owner.")).toBeVisible();

  // Two seats of Pro, paid in Razorpay's window: the price, its GST split to the team.
  await page.getByRole("link", { name: "Buy seats" }).click();
  await expect(page.getByRole("heading", { name: /Pro seats for Kaveri Robotics/ })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Seats", { exact: true }).fill("2");
  await expect(page.getByTestId("seats-price")).toHaveText(
    "2 seats × ₹699 = ₹1,398 a month, GST included.",
  );
  await expect(page.getByTestId("seats-gst")).toContainText(
    "₹1,398 is ₹1,184.74 + ₹106.63 CGST (9%) + ₹106.63 SGST (9%)",
  );
  await expectNoAxeViolations(page);
  await page.setViewportSize(MOBILE);
  await expectNoAxeViolations(page);
  await page.setViewportSize(DESKTOP);
  await page.getByRole("button", { name: "Continue to payment: ₹1,398" }).click();
  const modal = page.getByRole("dialog");
  await expect(modal).toContainText("₹1,398");
  await modal.getByRole("button", { name: "Success" }).click();
  await expect(page).toHaveURL(/\/account\/team\/[^/?]+\?paid=1/, { timeout: 20_000 });
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("team-seats")).toContainText(
      "2 seats of Pro (monthly): 0 held, 0 kept for invitations, 2 free.",
    );
  }).toPass({ timeout: 20_000 });

  const colleague = uniqueEmail("colleague");
  await page.getByLabel("Their work email").fill(colleague);
  await page.getByRole("button", { name: "Send the invitation" }).click();
  await expect(
    page.getByText(`Invitation sent to ${colleague}. It works for a week.`),
  ).toBeVisible();
  await expect(
    page.getByRole("button", { name: `Withdraw the invitation to ${colleague}` }),
  ).toBeVisible();
  await page.setViewportSize(MOBILE);
  await expectNoAxeViolations(page);

  // The colleague, in their own browser, from the mail's link.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signUpAndVerify(other, { name: "Arun", email: colleague, password: PASSWORD });
  const link = await linkFromMail(E2E_DATA_DIR, colleague, "/team-invite/");
  await other.setViewportSize(MOBILE);
  await other.goto(link);
  await expect(
    other.getByRole("heading", { name: "Join Kaveri Robotics Private Limited" }),
  ).toBeVisible();
  await expectNoAxeViolations(other);
  await other.getByRole("button", { name: "Accept and join" }).click();
  await expect(other.getByText("Your role: Member.")).toBeVisible();
  await expect(other.getByText(/You have one of its seats: Pro on the site/)).toBeVisible();
  await expectNoAxeViolations(other);

  // The owner sees them, and removes them.
  await page.setViewportSize(DESKTOP);
  await page.reload();
  await page.getByRole("button", { name: `Remove ${colleague}` }).click();
  await expect(page.getByText(`${colleague} left the team.`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Remove ${colleague}` })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await other.reload();
  await expect(other.getByText(/not found/i).first()).toBeVisible();
  await context.close();

  // Floating seats (issue 57): the owner lets machines take the seats, with a 1.5× allowance.
  await waitForHydration(page);
  await page
    .getByLabel("How seats are held")
    .selectOption({ label: "Floating: one machine each, while the app runs" });
  await page
    .getByLabel("Overage allowance (floating seats)")
    .selectOption({ label: "1.5× the seats" });
  await page.getByRole("button", { name: "Save how seats are held" }).click();
  await expect(
    page.getByText("Seats now float: a machine takes one when the app checks in."),
  ).toBeVisible();
  await expect(page.getByTestId("floating-use")).toHaveText(
    "0 machines of 2 seats in use now (the overage allowance admits up to 3 machines). Most at once in the last 30 days: 0 machines.",
  );
  await expect(page.getByTestId("team-seats")).toContainText("2 seats of Pro (monthly), floating.");
  await expectNoAxeViolations(page);
});

/**
 * Following a link on a team's page leaves its forms as they were (issue 54, point 5): no button
 * says "Sending…" or "Saving…", nor waits, while the next page loads. The next page's data is held
 * until the check is done, so the page stays in that moment; the section menu's "Teams", marked
 * pending for a page under /account/team, shows that the page has drawn the navigation under way.
 */
test("a link followed on a team's page sets no form pending while the next page loads", async ({
  page,
}) => {
  await signUpAndVerify(page, { name: "Meena", email: uniqueEmail("links"), password: PASSWORD });
  await page.setViewportSize(DESKTOP);
  await page.goto("/account/team");
  await waitForHydration(page);
  await page.getByLabel("Name or company name").fill("Godavari Instruments LLP");
  await page.getByLabel("Address", { exact: true }).fill("7 Benz Circle");
  await page.getByLabel("City").fill("Vijayawada");
  await page.getByLabel("PIN code").fill("520010");
  await page.getByLabel("State or union territory").selectOption({ label: "Andhra Pradesh" });
  await page.getByRole("button", { name: "Create the team" }).click();
  const heading = page.getByRole("heading", { name: "Godavari Instruments LLP" });
  await expect(heading).toBeVisible();
  const pendingWords = page.getByRole("button", { name: /…/ });
  const waiting = page.locator("form button:disabled");
  await expect(page.getByRole("button", { name: "Send the invitation" })).toBeEnabled();
  expect(await pendingWords.count()).toBe(0);
  expect(await waiting.count()).toBe(0);

  // The seats page's data waits until the check below is done.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested = () => {};
  const held = new Promise<void>((resolve) => (requested = resolve));
  await page.route(/\/account\/team\/[^/?]+\/seats\.data(\?|$)/, async (route) => {
    requested();
    await released;
    await route.continue();
  });
  const teams = page.getByRole("navigation", { name: "Account" }).getByRole("link", {
    name: "Teams",
  });
  await expect(teams).not.toHaveClass(/(^|\s)pending(\s|$)/);
  await page.getByRole("link", { name: "Buy seats" }).click();
  await held;
  await expect(teams).toHaveClass(/(^|\s)pending(\s|$)/);
  // Drawn in the same render as the menu's mark, and nothing changes until the data comes.
  await expect(heading).toBeVisible();
  expect(await pendingWords.allTextContents()).toEqual([]);
  expect(await waiting.count()).toBe(0);
  await expect(page.getByRole("button", { name: "Send the invitation" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Save billing details" })).toBeEnabled();
  await expectNoAxeViolations(page);

  release();
  await expect(page.getByRole("heading", { name: /Pro seats for Godavari/ })).toBeVisible();
  await expect(teams).not.toHaveClass(/(^|\s)pending(\s|$)/);
});
