import type { Page } from "@playwright/test";
import { SANDBOX_AUTH } from "../support/billing";
import { acceptAnalytics, flushEvents, recordEvents } from "./analytics-helpers";
import {
  expect,
  expectNoAxeViolations,
  signUpAndVerify,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";
import { desktopMe } from "./desktop-me";

const PASSWORD = "billing-e2e-password-1";

async function fillBillingDetails(page: Page) {
  await page.getByLabel("Name or company name").fill("Asha Rao");
  await page.getByLabel("Address", { exact: true }).fill("12 MG Road");
  await page.getByLabel("City").fill("Bengaluru");
  await page.getByLabel("PIN code").fill("560001");
  await page.getByLabel("State or union territory").selectOption({ label: "Karnataka" });
}

/** A new customer on the checkout page of `plan`, their billing details filled in. */
async function newCustomerAtCheckout(page: Page, name: string, tag: string, plan: string) {
  await signUpAndVerify(page, { name, email: uniqueEmail(tag), password: PASSWORD });
  await page.goto(`/checkout?plan=${plan}`);
  await waitForHydration(page);
  await fillBillingDetails(page);
}

/**
 * The payment method on /account/subscription, loaded again: it comes with Razorpay's webhook, a
 * moment after the welcome page, and the page does not refresh itself ("Not known yet" until then).
 */
async function paymentMethodShown(page: Page): Promise<string | null> {
  await page.goto("/account/subscription");
  return page.getByTestId("payment-method").textContent();
}

test.describe("buying Pro with the Razorpay sandbox", () => {
  // Invalid details and the sandbox's "Failure" answer 400, which the browser logs as a failed load.
  test.use({ allowConsoleErrors: /the server responded with a status of 400/ });

  test("pricing → checkout → Card, Success → Pro everywhere, with purchase analytics", async ({
    page,
  }) => {
    const sent = await recordEvents(page);
    await signUpAndVerify(page, { name: "Asha", email: uniqueEmail("buyer"), password: PASSWORD });
    await page.goto("/pricing");
    await waitForHydration(page);
    await acceptAnalytics(page);
    // Signed in on Free, the button says "Upgrade" once the page knows the visitor's plan.
    await expect(page.getByRole("link", { name: "Upgrade to Pro monthly" })).toBeVisible();
    await page.getByRole("link", { name: "Upgrade to Pro monthly" }).click();
    await expect(page).toHaveURL(/\/checkout\?plan=pro-monthly$/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Subscribe to Pro (monthly)" })).toBeVisible();
    await expect(page.getByTestId("test-mode")).toBeVisible();
    await expect(page.getByTestId("checkout-price")).toHaveText("₹699 / month");

    // Every error at once, beside its field.
    await page.getByRole("button", { name: /Continue to payment/ }).click();
    await expect(page.getByText("Enter the 6-digit PIN code.")).toBeVisible();
    await expect(page.getByText("Choose your state or union territory.")).toBeVisible();
    await expectNoAxeViolations(page);

    await fillBillingDetails(page);
    await page.getByLabel("GSTIN (optional)").fill("27AAPFU0939F1ZV");
    await page.getByRole("button", { name: /Continue to payment/ }).click();
    await expect(page.getByText(/registered in state 27, not Karnataka/)).toBeVisible();
    await page.getByLabel("GSTIN (optional)").fill("");
    await page.getByRole("button", { name: /Continue to payment/ }).click();

    const modal = page.getByRole("dialog");
    await expect(modal).toBeVisible();
    await expect(modal).toContainText("₹699.00");
    await expect(modal).toContainText("Test mode");
    await expectNoAxeViolations(page);
    await expect(modal.getByRole("radio", { name: "Card" })).toBeChecked();
    await modal.getByRole("button", { name: "Success" }).click();

    await expect(page).toHaveURL(/\/checkout\/complete\?subscription=sub_/);
    await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
      timeout: 20_000,
    });
    await flushEvents(page);
    await expect
      .poll(() => sent.map((event) => event.name))
      .toEqual(
        expect.arrayContaining(["add_to_cart", "begin_checkout", "purchase", "subscription_start"]),
      );
    const purchase = sent.find((event) => event.name === "purchase")?.params;
    expect(purchase).toMatchObject({
      currency: "INR",
      value: 699,
      transaction_id: expect.stringMatching(/^pay_/),
    });
    expect(sent.find((event) => event.name === "subscription_start")?.params).toEqual({
      plan_name: "Pro (monthly)",
      plan_price: 699,
    });

    await page.getByRole("link", { name: "View subscription" }).click();
    await expect(page.getByTestId("current-plan")).toHaveText("Pro (monthly)");
    await expect(page.getByTestId("next-charge")).toHaveText(/^₹699 on \d{1,2} \w{3} \d{4}$/);
    await expect.poll(() => paymentMethodShown(page), { timeout: 20_000 }).toBe("Visa •••• 4366");
    await expectNoAxeViolations(page);

    const me = await desktopMe(page);
    expect(me.entitlement).toMatchObject({ plan: "pro-monthly", device_limit: 3 });

    // A switch to yearly is authorised through the same checkout, but it is no sale: the
    // funnel gets no second begin_checkout (issue 33, point 8).
    const checkoutsBefore = sent.filter((event) => event.name === "begin_checkout").length;
    await page.goto("/account/subscription");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Switch to Pro (yearly)" }).click();
    await expect(page.getByRole("heading", { name: "Switch to Pro (yearly)" })).toBeVisible();
    await waitForHydration(page);
    await page.getByRole("button", { name: /Authorise Pro \(yearly\)/ }).click();
    await expect(modal).toBeVisible();
    await modal.getByRole("button", { name: "Success" }).click();
    await expect(page.getByRole("heading", { name: "Plan change scheduled" })).toBeVisible({
      timeout: 20_000,
    });
    await flushEvents(page);
    await expect.poll(() => sent.map((event) => event.name)).toContain("subscription_upgrade");
    expect(sent.filter((event) => event.name === "begin_checkout")).toHaveLength(checkoutsBefore);
  });

  test("UPI AutoPay works the same way", async ({ page }) => {
    await newCustomerAtCheckout(page, "Bala", "upi", "pro-yearly");
    // The subscription the checkout opens, as its modal asks the sandbox for it.
    const loaded = page.waitForResponse(/\/checkout\/subscriptions\/sub_\w+\?key_id=/);
    await page.getByRole("button", { name: /Continue to payment/ }).click();
    const subscriptionId = /sub_\w+/.exec((await loaded).url())?.[0] ?? "";
    const modal = page.getByRole("dialog");
    await modal.getByRole("radio", { name: "UPI AutoPay" }).check();
    // UPI Collect ended (NPCI, 28 Feb 2026): a QR code to scan with the UPI app, nothing to type.
    await expect(
      modal.getByRole("img", { name: "QR code of the UPI AutoPay mandate" }),
    ).toBeVisible();
    await expect(modal.getByText("Scan with your UPI app")).toBeVisible();
    await expect(modal.getByRole("textbox")).toHaveCount(0);
    // The buyer scans it and declines in their UPI app, then scans again and approves: the open
    // checkout follows both answers (the sandbox's control route stands for the phone).
    const scan = (outcome: "success" | "failure") =>
      page.request.post(
        `/_sandbox/razorpay/control/checkout/subscriptions/${subscriptionId}/scan`,
        {
          headers: { authorization: SANDBOX_AUTH },
          data: { outcome },
        },
      );
    expect((await scan("failure")).status()).toBe(200);
    await expect(modal.getByRole("alert")).toHaveText(
      "Payment failed. Nothing was charged. Try again or close.",
    );
    expect((await scan("success")).status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
      timeout: 20_000,
    });
    await page.goto("/account/subscription");
    await expect(page.getByTestId("current-plan")).toHaveText("Pro (yearly)");
    await expect
      .poll(() => paymentMethodShown(page), { timeout: 20_000 })
      .toBe("UPI AutoPay su•••@razorpay");
  });

  test("on a phone, UPI AutoPay opens the UPI app instead of showing a QR code", async ({
    browser,
  }) => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await phone.newPage();
    await newCustomerAtCheckout(page, "Deepa", "upi-phone", "pro-monthly");
    await page.getByRole("button", { name: /Continue to payment/ }).click();
    const modal = page.getByRole("dialog");
    await modal.getByRole("radio", { name: "UPI AutoPay" }).check();
    await expect(modal.getByRole("link", { name: "Open your UPI app" })).toHaveAttribute(
      "href",
      /^upi:\/\/mandate\?/,
    );
    await expect(
      modal.getByRole("img", { name: "QR code of the UPI AutoPay mandate" }),
    ).toHaveCount(0);
    await expect(modal.getByRole("textbox")).toHaveCount(0);
    await phone.close();
  });

  test("a failed payment charges nothing, and trying again works", async ({ page }) => {
    await newCustomerAtCheckout(page, "Chitra", "retry", "pro-monthly");
    await page.getByRole("button", { name: /Continue to payment/ }).click();
    const modal = page.getByRole("dialog");
    await modal.getByRole("button", { name: "Failure" }).click();
    await expect(modal.getByRole("alert")).toContainText("Payment failed. Nothing was charged.");
    await expect(page.getByText("The payment failed. Nothing was charged.")).toBeVisible();
    await modal.getByRole("button", { name: "Close checkout" }).click();
    await expect(modal).toBeHidden();
    await expect(
      page.getByText("Checkout was closed before paying. Nothing was charged."),
    ).toBeVisible();

    await page.goto("/account/subscription");
    await expect(page.getByTestId("current-plan")).toHaveText("Free");

    await page.goto("/checkout?plan=pro-monthly");
    await waitForHydration(page);
    // The details were kept from the first try.
    await expect(page.getByLabel("PIN code")).toHaveValue("560001");
    await page.getByRole("button", { name: /Continue to payment/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Success" }).click();
    await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
      timeout: 20_000,
    });
  });
});
