import type { Page } from "@playwright/test";
import { linkFromMail } from "../support/mail";
import { totp } from "../support/totp";
import { E2E_DATA_DIR } from "./env";
import { expect, signUpAndVerify, test, uniqueEmail, waitForHydration } from "./fixtures";

const PASSWORD = "oscilloscope-probe-12";

async function logIn(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

test("two-factor authentication: turn on, then sign-in asks for a code, and a backup code works", async ({
  page,
}) => {
  const email = uniqueEmail("tfa");
  await signUpAndVerify(page, { name: "Tara", email, password: PASSWORD });
  await page.goto("/account/security");
  await waitForHydration(page);
  await page.getByLabel("Password, to set it up").fill(PASSWORD);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  const backupCodes = (await page.getByTestId("backup-codes").locator("li").allTextContents()).map(
    (code) => code.trim(),
  );
  expect(backupCodes.length).toBeGreaterThan(3);
  await page.getByLabel("Code from the app").fill(totp(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Two-factor authentication is on: signing in asks")).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await logIn(page, email, PASSWORD);
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await page.getByLabel("Authentication code").fill(totp(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/account$/);

  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await logIn(page, email, PASSWORD);
  await page.getByRole("button", { name: "Use a backup code instead" }).click();
  await page.getByLabel("Backup code").fill(backupCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/account$/);
});

test("change the password, and sign out the other browser", async ({ page, browser }) => {
  const email = uniqueEmail("pw");
  await signUpAndVerify(page, { name: "Pavan", email, password: PASSWORD });

  const otherContext = await browser.newContext({
    userAgent:
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
  });
  const other = await otherContext.newPage();
  await logIn(other, email, PASSWORD);
  await expect(other).toHaveURL(/\/account$/);

  await page.goto("/account/security");
  await waitForHydration(page);
  await expect(page.getByText("Chrome on Windows")).toBeVisible();
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByText("Every other browser session was signed out.")).toBeVisible();
  await other.goto("/account");
  await expect(other).toHaveURL(/\/auth\?next=/);
  await otherContext.close();

  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill("a-fresh-password-345");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password was changed")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).first().click();
  // Signed out before asking for the sign-in page: asked while the sign-out is still on its way,
  // /auth sends a signed-in visitor on to /account.
  await expect(page).toHaveURL(/\/$/);
  await logIn(page, email, "a-fresh-password-345");
  await expect(page).toHaveURL(/\/account$/);
});

test.describe("deleting the account", () => {
  test.use({ allowConsoleErrors: /status of 401/ });
  test("erases it: the user can no longer sign in", async ({ page }) => {
    const email = uniqueEmail("bye");
    await signUpAndVerify(page, { name: "Bela", email, password: PASSWORD });
    await page.goto("/account/security");
    await waitForHydration(page);
    await page.getByLabel("Your password, to confirm").fill(PASSWORD);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/\?account=deleted$/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/auth\?next=/);
    await logIn(page, email, PASSWORD);
    await expect(page.getByRole("alert")).toHaveText("The email or password is not right.");
  });
});

test("profile: rename, and change the email address: password, a link to the old address, then one to the new", async ({
  page,
}) => {
  const email = uniqueEmail("prof");
  const newEmail = uniqueEmail("prof-new");
  await signUpAndVerify(page, { name: "Priya", email, password: PASSWORD });
  await page.goto("/account/profile");
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Priya Nair");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your name was saved.")).toBeVisible();

  await page.getByLabel("New email address").fill(newEmail);
  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByText(`We sent a link to ${email}.`)).toBeVisible();
  // Both links carry the page they land on; the sign-up link in the same inbox does not.
  const mailedLink = (to: string) => linkFromMail(E2E_DATA_DIR, to, "email%3Dconfirmed");
  await page.goto(await mailedLink(email));
  await expect(
    page.getByText(`Thank you. Now open the link we sent to ${newEmail} to finish the change.`),
  ).toBeVisible();
  await page.goto(await mailedLink(newEmail));
  await expect(page).toHaveURL(/\/account\/profile\?email=confirmed&to=/);
  await expect(page.getByText(`Your email address is now ${newEmail}.`)).toBeVisible();
  await page.goto("/account");
  await expect(page.getByText(`Signed in as ${newEmail}`)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
});
