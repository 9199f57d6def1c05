/**
 * Issue 56's journey: a visitor switches pricing to dollars, a business in Germany with a VAT id
 * buys Pro yearly by international card on the Razorpay sandbox, the account, the desktop app and
 * the renewal centre show Pro with the next charge in dollars and no GST split, the export invoice
 * (read back with pdftotext) carries the LUT endorsement and ARN, the country, the dollar amount,
 * the rupee value and the rate, and the 7-day refund makes a matching credit note.
 */
import type { Page } from "@playwright/test";
import { desktopMe } from "./desktop-me";
import { E2E_LUT_ARN } from "./env";
import {
  expect,
  expectNoAxeViolations,
  signUpAndVerify,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";
import { pdfText } from "../support/pdf";

const PASSWORD = "selling-abroad-e2e-password-1";
const flat = (text: string) => text.replace(/\s+/g, " ");

/** The PDFs linked from /invoices, newest first, as text. */
async function documents(page: Page): Promise<string[]> {
  await page.goto("/invoices");
  const links = page.getByRole("link", { name: /^Download .* as PDF$/ });
  const texts: string[] = [];
  for (const href of await links.evaluateAll((all) =>
    all.map((link) => (link as HTMLAnchorElement).href),
  )) {
    const response = await page.request.get(href);
    expect(response.status()).toBe(200);
    texts.push(pdfText(Buffer.from(await response.body())));
  }
  return texts;
}

test.describe("selling abroad", () => {
  // The form's refusal of a missing country answers 400, which the browser logs.
  test.use({ allowConsoleErrors: /the server responded with a status of 400/ });

  test("dollars on pricing → a German business buys Pro yearly by card → export invoice and credit note", async ({
    page,
  }) => {
    await signUpAndVerify(page, {
      name: "Jonas Weber",
      email: uniqueEmail("werkbank"),
      password: PASSWORD,
    });

    await page.goto("/pricing?billing=yearly");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Simple pricing in rupees");
    await page
      .getByRole("navigation", { name: "Currency" })
      .getByRole("link", { name: /US dollars/ })
      .click();
    await expect(page).toHaveURL(/\/pricing\?currency=USD&billing=yearly$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Simple pricing in US dollars",
    );
    await expect(page.getByTestId("pro-price")).toContainText("$89");
    await expect(
      page.getByText("No Indian GST for buyers outside India", { exact: false }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    // Remembered: the plain address comes back in dollars.
    await page.goto("/pricing?billing=yearly");
    await expect(page).toHaveURL(/\/pricing\?billing=yearly&currency=USD$/);
    await waitForHydration(page);

    await page.getByRole("link", { name: /Pro yearly/ }).click();
    await expect(page).toHaveURL(/\/checkout\?plan=pro-yearly&currency=USD$/);
    await waitForHydration(page);
    await expect(page.getByTestId("checkout-price")).toHaveText("$89 / year");
    await expect(page.getByLabel("State or union territory")).toHaveCount(0);

    await page.getByRole("button", { name: /Continue to payment/ }).click();
    await expect(page.getByText("Choose your country.")).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel("Name or company name").fill("Werkbank GmbH");
    await page.getByLabel("Address", { exact: true }).fill("Torstraße 1");
    await page.getByLabel("City").fill("Berlin");
    await page.getByLabel("Postal code (if your country has one)").fill("10119");
    await page.getByLabel("Country", { exact: true }).selectOption({ label: "Germany" });
    await page.getByLabel("VAT or tax id (optional)").fill("DE 123 456 789");
    await page.getByRole("button", { name: /Continue to payment/ }).click();

    const modal = page.getByRole("dialog");
    await expect(modal).toBeVisible();
    await expect(modal).toContainText("$89.00");
    // UPI moves rupees only: a charge in dollars is offered cards, the international one first.
    await expect(modal.getByRole("radio", { name: "UPI" })).toBeHidden();
    await expect(modal.getByRole("radio", { name: /Issued outside India/ })).toBeChecked();
    await modal.getByRole("button", { name: "Success" }).click();
    await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
      timeout: 20_000,
    });

    expect((await desktopMe(page)).entitlement.plan).toBe("pro-yearly");

    // The renewal centre: the next charge in dollars, no GST split.
    await page.goto("/account/subscription");
    await expect(page.getByTestId("next-charge")).toContainText("$89");
    await expect(page.getByTestId("next-charge-gst")).toHaveText(
      "No Indian GST: a sale outside India, on an export invoice",
    );
    await expect(page.getByText(/CGST|SGST|IGST/)).toHaveCount(0);

    // The export invoice, once Razorpay's webhook has recorded the payment.
    await expect.poll(async () => (await documents(page)).length, { timeout: 20_000 }).toBe(1);
    const [invoice = ""] = await documents(page);
    expect(invoice).toContain("Export Invoice");
    expect(flat(invoice)).toContain(
      "SUPPLY MEANT FOR EXPORT UNDER LETTER OF UNDERTAKING WITHOUT PAYMENT OF INTEGRATED TAX.",
    );
    expect(invoice).toContain(`LUT ARN: ${E2E_LUT_ARN}`);
    expect(invoice).toContain("Country: Germany");
    expect(invoice).toContain("VAT / tax id: DE123456789");
    expect(invoice).toContain("$89.00");
    expect(invoice).toMatch(/₹84\.5000 per USD/);
    expect(invoice).toContain("₹7,520.50");
    expect(invoice).not.toMatch(/CGST|SGST/);

    // The 7-day refund: reviewed, confirmed, and credited in the same currency and rate.
    await page.goto("/account/subscription?refund=review");
    await expect(page.getByTestId("refund-review")).toContainText(
      "A credit note reverses your export invoice",
    );
    await page.getByRole("button", { name: "Refund $89 and end Pro now" }).click();
    await expect(page.getByText(/Refund requested: \$89 goes back/)).toBeVisible();
    await expect.poll(async () => (await documents(page)).length, { timeout: 20_000 }).toBe(2);
    const credit = (await documents(page)).find((text) => text.includes("Credit Note")) ?? "";
    expect(credit).toContain("Credit Note (Export)");
    expect(credit).toContain("$89.00");
    expect(credit).toContain("₹7,520.50");
  });
});
