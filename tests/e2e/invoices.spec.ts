import type { Page } from "@playwright/test";
import { expect, signUpAndVerify, test, uniqueEmail, waitForHydration } from "./fixtures";
import { pdfText } from "../support/pdf";

const PASSWORD = "invoices-e2e-password-1";

async function buy(page: Page, state: string, gstin = "") {
  await page.goto("/checkout?plan=pro-monthly");
  await waitForHydration(page);
  await page.getByLabel("Name or company name").fill(gstin ? "Meera Traders LLP" : "Asha Rao");
  await page.getByLabel("Address", { exact: true }).fill("5 Linking Road");
  await page.getByLabel("City").fill("Mumbai");
  await page.getByLabel("PIN code").fill("400050");
  await page.getByLabel("State or union territory").selectOption({ label: state });
  await page.getByLabel("GSTIN (optional)").fill(gstin);
  await page.getByRole("button", { name: /Continue to payment/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Success" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
    timeout: 20_000,
  });
}

/** Opens /invoices (waiting for the first invoice) and downloads its PDF; returns url and text. */
async function firstInvoice(page: Page) {
  await expect
    .poll(
      async () => {
        await page.goto("/invoices");
        return page.getByRole("link", { name: /^Download .* as PDF$/ }).count();
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  const link = page.getByRole("link", { name: /^Download .* as PDF$/ }).first();
  const href = (await link.getAttribute("href")) ?? "";
  const response = await page.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  return { href, text: pdfText(await response.body()) };
}

test.describe("GST tax invoices", () => {
  test.use({ allowConsoleErrors: /the server responded with a status of 400/ });

  test("a buyer in Maharashtra with a GSTIN gets an IGST invoice only they can download", async ({
    page,
    browser,
  }) => {
    await signUpAndVerify(page, { name: "Meera", email: uniqueEmail("gstin"), password: PASSWORD });

    // A GSTIN with a wrong check character is refused with a clear message.
    await page.goto("/billing");
    await waitForHydration(page);
    await page.getByLabel("GSTIN (optional)").fill("27AAPFU0939F1ZX");
    await page.getByRole("button", { name: "Save billing details" }).click();
    await expect(
      page.getByText("The last character of that GSTIN does not match: check it for a typo."),
    ).toBeVisible();

    await buy(page, "Maharashtra", "27AAPFU0939F1ZV");
    const { href, text } = await firstInvoice(page);
    await expect(page.getByRole("row", { name: /PL\/\d{2}-\d{2}\/\d{6}/ })).toContainText("₹699");
    expect(text).toContain("Tax Invoice");
    expect(text).toContain("29AAPCP1234F1ZC");
    expect(text).toContain("27AAPFU0939F1ZV");
    expect(text).toContain("Maharashtra (27)");
    expect(text).toMatch(/IGST @ 18%/);
    expect(text).not.toMatch(/CGST @/);
    expect(text).toContain("₹699.00");
    expect(text).toContain("Rupees Six Hundred Ninety-Nine Only");

    const other = await browser.newPage();
    await signUpAndVerify(other, {
      name: "Other",
      email: uniqueEmail("other"),
      password: PASSWORD,
    });
    expect((await other.request.get(href)).status()).toBe(404);
    await other.close();
  });

  test("a buyer in Karnataka gets CGST and SGST", async ({ page }) => {
    await signUpAndVerify(page, {
      name: "Asha",
      email: uniqueEmail("karnataka"),
      password: PASSWORD,
    });
    await buy(page, "Karnataka");
    const { text } = await firstInvoice(page);
    expect(text).toMatch(/CGST @ 9%/);
    expect(text).toMatch(/SGST @ 9%/);
    expect(text).not.toMatch(/IGST @/);
    expect(text).toContain("Karnataka (29)");
    expect(text).toContain("Unregistered");
  });

  test("the sample invoice for the payment provider's website review is a real PDF", async ({
    page,
  }) => {
    const response = await page.request.get("/legal/sample-invoice.pdf");
    expect(response.status()).toBe(200);
    const text = pdfText(await response.body());
    expect(text).toContain("Tax Invoice");
    expect(text).toContain("29AAPCP1234F1ZC");
  });
});
