/**
 * Issue 33, point 1 in the browser: a customer asks for help under /account/support, the team
 * answers from /admin/support, the customer reads the answer; the team finds the ticket and its
 * mails on the customer's page (point 5). Every page of the desk passes axe
 * and fits the screen at 1280 and 390 px.
 */
import type { Page } from "@playwright/test";
import { E2E_SUPPORT_ADMIN_EMAIL } from "./env";
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

const PASSWORD = "support-password-1";

// The empty form is refused by the server (400), which the browser logs.
test.use({ allowConsoleErrors: /status of 400/ });

/** Axe and no sideways scroll, at a desktop's width and then a phone's. */
async function checkAtBothWidths(page: Page, what: string) {
  for (const viewport of [DESKTOP, MOBILE]) {
    await page.setViewportSize(viewport);
    const fits = await page.evaluate(
      () => document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(fits, `${what} at ${viewport.width} px scrolls sideways`).toBe(true);
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize(DESKTOP);
}

test("a customer asks for help, the team answers, and the customer reads the answer", async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  await signUpAndVerify(page, {
    name: "Nandini Sharma",
    email: uniqueEmail("desk"),
    password: PASSWORD,
  });
  await page.goto("/account/support");
  await waitForHydration(page);
  await expect(page.getByText("You have not asked us anything yet.")).toBeVisible();
  await checkAtBothWidths(page, "/account/support");

  // The form says what is wrong, beside each field, before anything is sent.
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(page.getByText("Choose what your request is about.")).toBeVisible();
  await expect(page.getByLabel("Subject")).toHaveAccessibleDescription(
    "Write a short subject (at least 3 characters).",
  );

  await page.getByLabel("What is it about?").selectOption("app");
  await page.getByLabel("Subject").fill("Logic view freezes at 24 MHz");
  await page
    .getByLabel("Message")
    .fill("The logic analyser view freezes after ten seconds when sampling at 24 MHz.");
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(page.getByRole("status").filter({ hasText: "is open" })).toContainText(
    /Ticket #\d+ is open\./,
  );
  const number = /\/account\/support\/(\d+)/.exec(page.url())?.[1];
  expect(number).toBeTruthy();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `#${number} Logic view freezes at 24 MHz`,
  );
  await checkAtBothWidths(page, "the customer's ticket");

  // The team, in another browser.
  const desk = await (await browser.newContext()).newPage();
  await signUpAndVerify(desk, {
    name: "Deepa Menon",
    email: E2E_SUPPORT_ADMIN_EMAIL,
    password: PASSWORD,
  });
  await desk.goto("/admin/support");
  const row = desk.getByRole("link", { name: `#${number} Logic view freezes at 24 MHz` });
  await expect(row).toBeVisible();
  await checkAtBothWidths(desk, "/admin/support");
  await row.click();
  await expect(desk.getByRole("heading", { level: 1 })).toHaveText(
    `#${number} Logic view freezes at 24 MHz`,
  );
  await desk
    .getByLabel("Reply", { exact: true })
    .fill("Thanks, Nandini: version 2.1.1 fixes this. Please update from the Download page.");
  await desk.getByRole("button", { name: "Send reply" }).click();
  await expect(desk.getByRole("status").filter({ hasText: "Reply sent" })).toBeVisible();
  await expect(desk.getByLabel("Reply", { exact: true })).toHaveValue("");
  await checkAtBothWidths(desk, "the team's ticket");

  // The customer's page (issue 33, point 5): the ticket and its mails on one timeline.
  await desk.getByRole("link", { name: /Nandini Sharma/ }).click();
  await expect(desk).toHaveURL(/\/admin\/customers\/[^/?]+$/);
  await expect(desk.getByRole("heading", { level: 1 })).toHaveText("Customer");
  const timeline = desk.getByRole("list", { name: "Timeline entries" });
  await expect(
    timeline.getByText(`Ticket #${number} opened: Logic view freezes at 24 MHz`),
  ).toBeVisible();
  await desk.getByRole("checkbox", { name: "Mails sent" }).check();
  await desk.getByRole("button", { name: "Filter" }).click();
  await expect(desk).toHaveURL(/\?show=mail$/);
  // The acknowledgement left long ago (the reply's mail may still be on its way).
  await expect(
    timeline.getByText(`Mail sent: [Pinout #${number}] Logic view freezes at 24 MHz`),
  ).toBeVisible();
  await expect(timeline.getByText(/^Ticket #/)).toHaveCount(0);
  await checkAtBothWidths(desk, "the customer's page");
  await desk.context().close();

  await page.reload();
  await expect(page.getByText("Answered: waiting for you")).toBeVisible();
  await expect(page.getByText("version 2.1.1 fixes this")).toBeVisible();
  await expect(page.getByText("Deepa from the support team")).toBeVisible();
});
