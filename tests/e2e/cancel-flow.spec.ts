/**
 * Issue 59, point 1 in a browser, at 390 and 1280 px with axe: the operator sets a pause offer
 * for Pro (monthly); one customer opens "Cancel subscription" on a phone, sees the offer and
 * "Cancel my subscription" together without scrolling, and takes the pause; another, on a
 * desktop, declines it and is cancelled at the period's end. The cockpit counts one shown and
 * taken, one shown and declined, with their reasons.
 *
 * Cancelling takes two presses from the subscription page (open the step, cancel); subscribing
 * from the same page takes three (the plan, "Continue to payment", the payment): cancelling is
 * never more than one press more than subscribing, and its button is as prominent as the offer's.
 */
import type { Browser, Locator, Page } from "@playwright/test";
import { E2E_RETENTION_ADMIN_EMAIL } from "./env";
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

const PASSWORD = "cancel-flow-e2e-password-1";

/** Presses counted, so a step added to either journey shows in the comparison. */
function presses() {
  let count = 0;
  return {
    press: async (target: Locator) => {
      count += 1;
      await target.click();
    },
    get count() {
      return count;
    },
  };
}

/** A new customer with Pro (monthly), bought from the subscription page: the presses it took. */
async function subscribedCustomer(browser: Browser, size: typeof MOBILE, tag: string) {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  await signUpAndVerify(page, { name: "Leaver", email: uniqueEmail(tag), password: PASSWORD });
  await page.goto("/account/subscription");
  await waitForHydration(page);
  const subscribing = presses();
  await subscribing.press(page.getByRole("link", { name: "Pro monthly", exact: true }));
  await waitForHydration(page);
  await page.getByLabel("Name or company name").fill("Leaver Traders");
  await page.getByLabel("Address", { exact: true }).fill("7 Park Street");
  await page.getByLabel("City").fill("Kolkata");
  await page.getByLabel("PIN code").fill("700016");
  await page.getByLabel("State or union territory").selectOption({ label: "West Bengal" });
  await subscribing.press(page.getByRole("button", { name: /Continue to payment/ }));
  await subscribing.press(page.getByRole("dialog").getByRole("button", { name: "Success" }));
  await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
    timeout: 20_000,
  });
  // The subscription is Razorpay-confirmed (webhook) before it can be cancelled.
  await expect
    .poll(
      async () => {
        await page.goto("/account/subscription");
        return page.getByRole("link", { name: "Cancel at end of period" }).count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  return { context, page, subscribePresses: subscribing.count };
}

/** Opens the step from the subscription page; both choices in view at this size, axe clean. */
async function openCancelStep(page: Page) {
  await waitForHydration(page);
  const cancelling = presses();
  await cancelling.press(page.getByRole("link", { name: "Cancel at end of period" }));
  await expect(page).toHaveURL(/\/account\/subscription\/cancel$/);
  await waitForHydration(page);
  const offer = page.getByRole("button", { name: "Pause for 1 month" });
  const cancel = page.getByRole("button", { name: "Cancel my subscription" });
  // At most one offer, and cancelling beside it: both visible without scrolling.
  await expect(page.getByTestId("cancel-offer")).toHaveCount(1);
  await expect(offer).toBeInViewport();
  await expect(cancel).toBeInViewport();
  // As prominent as the offer: the same size, colours and weight.
  const look = (button: Locator) =>
    button.evaluate((element) => {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      return [
        style.backgroundColor,
        style.color,
        style.fontSize,
        style.fontWeight,
        style.borderColor,
        Math.round(box.height),
      ];
    });
  expect(await look(cancel)).toEqual(await look(offer));
  await expectNoAxeViolations(page);
  return { offer, cancel, cancelling };
}

test("the cancellation step: a pause taken on a phone, the offer declined on a desktop, and the cockpit's counts", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, {
    name: "Retention",
    email: E2E_RETENTION_ADMIN_EMAIL,
    password: PASSWORD,
  });
  // The admin area has its own frame (no site navbar); its forms work before scripts too.
  await page.goto("/admin/retention");
  const monthly = page.getByRole("listitem").filter({ hasText: "Save for Pro (monthly)" });
  await monthly.getByLabel("Offer").selectOption({ label: "Pause for 1–3 billing cycles" });
  await monthly.getByLabel("Pause length (cycles)").selectOption("1");
  await monthly.getByRole("button", { name: "Save for Pro (monthly)" }).click();
  await expect(
    page.getByText(/^Pro \(monthly\): customers who open the cancel step/),
  ).toBeVisible();
  const count = async (label: string) => {
    await page.goto("/admin");
    const stat = page.getByTestId("retention-stats").locator("div").filter({ hasText: label });
    return Number(await stat.locator("dd").first().textContent());
  };
  const before = {
    shown: await count("Offers shown"),
    taken: await count("Offers taken"),
    declined: await count("Offers declined"),
  };

  // On a phone: the pause, taken.
  const phone = await subscribedCustomer(browser, MOBILE, "pauser");
  try {
    const step = await openCancelStep(phone.page);
    await phone.page
      .getByLabel("Why are you leaving? (optional)")
      .selectOption({ label: "It costs too much" });
    await step.cancelling.press(step.offer);
    await expect(phone.page).toHaveURL(/\/account\/subscription\?notice=paused$/);
    await expect(
      phone.page.getByText(
        /^Paused: nothing is charged until it resumes by itself on \d{1,2} [A-Z][a-z]{2} \d{4}\./,
      ),
    ).toBeVisible();
    await expect(phone.page.getByTestId("renewal-sentence")).toContainText(
      "It resumes by itself on",
    );
    await expectNoAxeViolations(phone.page);
  } finally {
    await phone.context.close();
  }

  // On a desktop: the offer declined, cancelled at the period's end, in two presses.
  const desk = await subscribedCustomer(browser, DESKTOP, "decliner");
  try {
    const step = await openCancelStep(desk.page);
    await desk.page
      .getByLabel("Why are you leaving? (optional)")
      .selectOption({ label: "I do not use it enough" });
    await step.cancelling.press(step.cancel);
    await expect(desk.page).toHaveURL(/\/account\/subscription\?notice=cancelled$/);
    await expect(desk.page.getByText(/^Cancelled\. You keep Pro until/)).toBeVisible();
    expect(step.cancelling.count).toBe(2);
    expect(step.cancelling.count).toBeLessThanOrEqual(desk.subscribePresses + 1);
    await expectNoAxeViolations(desk.page);
  } finally {
    await desk.context.close();
  }

  // The cockpit: one more shown and taken, one more shown and declined, and the reasons.
  await page.setViewportSize(MOBILE);
  expect(await count("Offers shown")).toBe(before.shown + 2);
  expect(await count("Offers taken")).toBe(before.taken + 1);
  expect(await count("Offers declined")).toBe(before.declined + 1);
  await page.goto("/admin/retention");
  const reasons = page.getByRole("table", { name: "Reasons given" });
  await expect(reasons).toContainText("It costs too much");
  await expect(reasons).toContainText("I do not use it enough");
  await expectNoAxeViolations(page);
});
