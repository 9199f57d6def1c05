import { SANDBOX_AUTH } from "../support/billing";
import { acceptAnalytics, flushEvents, recordEvents } from "./analytics-helpers";
import { E2E_COUPONS_ADMIN_EMAIL } from "./env";
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

const PASSWORD = "coupon-e2e-password-1";

/**
 * Issue 36, points 6 and 7 in a browser, with axe at 1280 and 390 px: the operator adds a coupon
 * for a Razorpay offer on /admin/coupons; a customer applies it at checkout, sees the price
 * before and after with its GST split, pays the discounted first payment in Razorpay's window,
 * and finds the coupon and the next charge on the account.
 */
test("the operator adds a coupon and a customer applies it at checkout", async ({
  page,
  browser,
}) => {
  // The offer, as the operator makes it in Razorpay's Dashboard (the sandbox's control route).
  const offer = await page.request.post("/_sandbox/razorpay/control/offers", {
    headers: { authorization: SANDBOX_AUTH },
    data: { name: "Launch", type: "forever", discount_type: "percentage", discount_value: 10 },
  });
  expect(offer.status()).toBe(200);
  const offerId = ((await offer.json()) as { id: string }).id;
  const code = `TEN-${Date.now().toString(36).toUpperCase()}`;

  await signUpAndVerify(page, {
    name: "Coupons",
    email: E2E_COUPONS_ADMIN_EMAIL,
    password: PASSWORD,
  });
  await page.setViewportSize(DESKTOP);
  await page.goto("/admin/coupons");
  await expect(page.getByRole("heading", { name: "New coupon" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Code").fill(code.toLowerCase());
  await page.getByLabel("Razorpay offer id").fill(offerId);
  await page.getByLabel("Amount").fill("10");
  await page.getByLabel("Discounted payments").selectOption("forever");
  await page.getByRole("button", { name: "Create coupon" }).click();
  await expect(page.getByText(`${code} is ready.`)).toBeVisible();
  await expect(page.getByRole("table", { name: "All coupons" })).toContainText(code);
  await page.setViewportSize(MOBILE);
  await expectNoAxeViolations(page);

  // A customer, in their own browser.
  const context = await browser.newContext();
  const buyer = await context.newPage();
  const sent = await recordEvents(buyer);
  await signUpAndVerify(buyer, { name: "Nila", email: uniqueEmail("coupon"), password: PASSWORD });
  await buyer.setViewportSize(DESKTOP);
  await buyer.goto("/checkout?plan=pro-monthly");
  await waitForHydration(buyer);
  await acceptAnalytics(buyer);
  await buyer.getByText("Have a coupon code?").click();
  await buyer.getByLabel("Coupon code").fill(code.toLowerCase());
  await buyer.getByRole("button", { name: "Apply" }).click();
  await expect(buyer).toHaveURL(new RegExp(`coupon=${code.toLowerCase()}`));
  const price = buyer.getByTestId("coupon-price");
  await expect(price).toHaveText(
    `Coupon ${code}: 10% off on every payment, for as long as the subscription lasts. ₹629.10 a month instead of ₹699, for as long as you stay, GST included.`,
  );
  await expectNoAxeViolations(buyer);

  await buyer.getByLabel("Name or company name").fill("Nila Menon");
  await buyer.getByLabel("Address", { exact: true }).fill("4 Beach Road");
  await buyer.getByLabel("City").fill("Chennai");
  await buyer.getByLabel("PIN code").fill("600001");
  await buyer.getByLabel("State or union territory").selectOption({ label: "Tamil Nadu" });
  // Another state than the supplier's: IGST, on the discounted price.
  await expect(buyer.getByTestId("checkout-gst")).toHaveText(
    "₹629.10 is ₹533.13 + ₹95.97 IGST (18%), as your tax invoice will show it (the discount comes off before GST).",
  );
  await buyer.setViewportSize(MOBILE);
  await expectNoAxeViolations(buyer);
  await buyer.getByRole("button", { name: "Continue to payment: ₹629.10" }).click();

  const modal = buyer.getByRole("dialog");
  await expect(modal).toContainText("First charge ₹629.10");
  await modal.getByRole("button", { name: "Success" }).click();
  await expect(buyer.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
    timeout: 20_000,
  });
  await buyer.getByRole("link", { name: "View subscription" }).click();
  await expect(buyer.getByTestId("next-charge")).toHaveText(/^₹629\.10 on \d{1,2} \w{3} \d{4}$/);
  await expect(buyer.getByTestId("subscription-coupon")).toHaveText(
    `${code}: 10% off on every payment, for as long as the subscription lasts.`,
  );
  await expectNoAxeViolations(buyer);

  // The catalogue's coupon_apply, with consent: the code, the plan and the discount in rupees.
  await flushEvents(buyer);
  await expect
    .poll(() => sent.filter((event) => event.name === "coupon_apply").map((event) => event.params))
    .toEqual([{ coupon: code, plan_name: "Pro (monthly)", discount: 69.9 }]);
  await context.close();
});
