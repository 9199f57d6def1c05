import type { Page } from "@playwright/test";
import { SANDBOX } from "../support/billing";
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
 * Issue 34, points 1, 5 and 8 in a browser, with axe at 1280 and 390 px: checkout splits the
 * price's GST as the state is chosen, the renewal centre says what renews when and for how much,
 * and after a failed renewal /fix-subscription says what happened and offers the one fix.
 */
const SIZES = [DESKTOP, MOBILE] as const;

async function atBothSizes(page: Page, path: string, check: () => Promise<void>) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(path);
    await waitForHydration(page);
    await check();
    await expectNoAxeViolations(page);
  }
}

test("checkout's GST split, the renewal centre, and the fix for a failed renewal", async ({
  page,
}) => {
  await signUpAndVerify(page, {
    name: "Kavya",
    email: uniqueEmail("renewal"),
    password: "renewal-e2e-password-1",
  });
  await page.goto("/checkout?plan=pro-monthly");
  await waitForHydration(page);
  const gst = page.getByTestId("checkout-gst");
  await expect(gst).toHaveText(
    "Choose your state below to see the GST split your tax invoice will show.",
  );
  await page.getByLabel("Name or company name").fill("Kavya Traders");
  await page.getByLabel("Address", { exact: true }).fill("4 Linking Road");
  await page.getByLabel("City").fill("Mumbai");
  await page.getByLabel("PIN code").fill("400050");
  // Another state than the supplier's (Karnataka): IGST.
  await page.getByLabel("State or union territory").selectOption({ label: "Maharashtra" });
  await expect(gst).toHaveText(
    "₹699 is ₹592.37 + ₹106.63 IGST (18%), as your tax invoice will show it.",
  );
  // A GSTIN decides the place of supply: a Karnataka registration is CGST and SGST.
  await page.getByLabel("GSTIN (optional)").fill("29AAPFU0939F1ZV");
  await expect(gst).toHaveText(
    "₹699 is ₹592.38 + ₹53.31 CGST (9%) + ₹53.31 SGST (9%), as your tax invoice will show it.",
  );
  await page.getByLabel("GSTIN (optional)").fill("");
  await page.getByLabel("State or union territory").selectOption({ label: "Maharashtra" });
  await expect(gst).toContainText("IGST");
  await expect(page.getByTestId("checkout-methods")).toContainText(
    "Pay with UPI AutoPay (scan the QR code with your UPI app, or open the app on your phone) or a debit or credit card",
  );
  await page.getByRole("button", { name: /Continue to payment/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Success" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
    timeout: 20_000,
  });
  const subscriptionId = new URL(page.url()).searchParams.get("subscription") ?? "";
  expect(subscriptionId).toMatch(/^sub_/);

  // The payment's details arrive with Razorpay's webhook, a moment after the welcome page.
  await expect
    .poll(
      async () => {
        await page.goto("/account/subscription");
        return page.getByTestId("payment-method").textContent();
      },
      { timeout: 20_000 },
    )
    .toBe("Visa •••• 4366");
  await atBothSizes(page, "/account/subscription", async () => {
    await expect(page.getByTestId("renewal-sentence")).toHaveText(
      /^Pro \(monthly\) renews on \d{1,2} [A-Z][a-z]{2} \d{4} for ₹699\.$/,
    );
    await expect(page.getByTestId("next-charge-gst")).toHaveText(
      "₹592.37 + ₹106.63 IGST (18%), as your invoice will show it",
    );
    await expect(page.getByTestId("payment-method")).toHaveText("Visa •••• 4366");
    await expect(page.getByTestId("if-charge-fails")).toBeVisible();
  });
  await atBothSizes(page, "/account", async () => {
    await expect(page.getByTestId("renewal-sentence")).toContainText("renews on");
    await expect(page.getByTestId("last-invoice")).toContainText("₹699");
  });

  // The renewal fails (Razorpay's charge, as the sandbox's control makes it).
  const failed = await page.request.post(
    `/_sandbox/razorpay/control/subscriptions/${subscriptionId}/charge`,
    {
      headers: {
        authorization: `Basic ${Buffer.from(`${SANDBOX.keyId}:${SANDBOX.keySecret}`).toString("base64")}`,
      },
      data: { fail: true },
    },
  );
  expect(failed.status()).toBe(200);
  await expect
    .poll(
      async () => {
        await page.goto("/fix-subscription");
        return page.getByRole("heading", { name: "Your last payment failed" }).count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await atBothSizes(page, "/fix-subscription", async () => {
    await expect(page.getByTestId("fix-happened")).toHaveText(
      /^Razorpay could not take the Pro \(monthly\) charge of ₹699 from Visa •••• 4366\. It tries again on \d{1,2} [A-Z][a-z]{2} \d{4}, then daily while it fails, and Pro stays on meanwhile\.$/,
    );
    await expect(page.getByRole("link", { name: "Update payment method" })).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
  });
});

test("pause, resume, then refund a first payment, without JavaScript, with axe", async ({
  page,
  browser,
}) => {
  await signUpAndVerify(page, {
    name: "Ishaan",
    email: uniqueEmail("selfrefund"),
    password: "self-refund-e2e-password-1",
  });
  await page.goto("/checkout?plan=pro-monthly");
  await waitForHydration(page);
  await page.getByLabel("Name or company name").fill("Ishaan Rao");
  await page.getByLabel("Address", { exact: true }).fill("12 MG Road");
  await page.getByLabel("City").fill("Bengaluru");
  await page.getByLabel("PIN code").fill("560001");
  await page.getByLabel("State or union territory").selectOption({ label: "Karnataka" });
  await page.getByRole("button", { name: /Continue to payment/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Success" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
    timeout: 20_000,
  });

  // The refund is offered once Razorpay's webhook has recorded the payment.
  await expect
    .poll(
      async () => {
        await page.goto("/account/subscription?refund=review");
        return page.getByTestId("refund-review").count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  // The cancel flow offers a pause first (issue 34, point 3).
  await atBothSizes(page, "/account/subscription", async () => {
    await expect(page.getByRole("heading", { name: "Pause instead of cancelling?" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Cancel at end of period" })).toBeVisible();
  });
  // The same customer in a browser with JavaScript off: plain links and forms do it all.
  const plain = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  try {
    const noScript = await plain.newPage();
    await noScript.goto("/account/subscription");
    await noScript.getByRole("button", { name: "Pause subscription" }).click();
    await expect(noScript.getByText(/^Paused: nothing more is charged\./)).toBeVisible();
    await atBothSizes(page, "/account/subscription", async () => {
      await expect(page.getByTestId("renewal-sentence")).toContainText(
        "Pro (monthly) was paused on",
      );
    });
    await noScript.getByRole("button", { name: "Resume subscription" }).click();
    await expect(noScript.getByText(/^Resumed: your subscription runs again/)).toBeVisible();

    // What the refund will do, at both sizes, with axe (it runs as a script, so there).
    await atBothSizes(page, "/account/subscription?refund=review", async () => {
      await expect(page.getByTestId("refund-review")).toContainText(
        "₹699 goes back to Visa •••• 4366",
      );
    });
    await noScript.goto("/account/subscription");
    await noScript.getByRole("link", { name: "Request a refund" }).click();
    await expect(noScript.getByTestId("refund-review")).toContainText(
      "Pro (monthly) ends now and your account moves to Free",
    );
    await noScript.getByRole("button", { name: "Refund ₹699 and end Pro now" }).click();
    await expect(noScript.getByText(/^Refund requested: ₹699 goes back/)).toBeVisible();
    // Asked and stored: the button is gone, so it cannot be asked twice.
    await expect(noScript.getByRole("button", { name: /^Refund ₹699/ })).toHaveCount(0);
  } finally {
    await plain.close();
  }

  await expect
    .poll(
      async () => {
        await page.goto("/invoices");
        return page.getByTestId("refunds").getByText("Refunded").count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await atBothSizes(page, "/invoices", async () => {
    await expect(page.getByTestId("refunds")).toContainText(/rfnd_\w+/);
  });
  await page.goto("/account/subscription");
  await expect(page.getByTestId("current-plan")).toHaveText("Free");
});
