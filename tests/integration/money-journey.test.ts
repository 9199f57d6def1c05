/**
 * Issue 55, the engine contract: one money journey end to end on both engines, so the embedded
 * default a newcomer runs is proven whole (the rest of the HTTP suite runs on PostgreSQL only).
 * Checkout through the sandbox, its webhook, the tax invoice as a PDF, a self-refund, and the
 * credit note that corrects the invoice, also as a PDF.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfText } from "../support/pdf";
import { getWithCookies, signUpVerified } from "../support/auth";
import { buyThroughSandbox, requestSelfRefund } from "../support/billing";
import { contractEngines } from "../support/engines";
import { pageText } from "../support/pages";
import { type RunningTestServer, startServerOn } from "../support/server";

describe.each(contractEngines("money journey"))("the money journey on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { AUTH_RATE_LIMIT: "100" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("checkout, webhook, invoice PDF, refund and credit note", async () => {
    const cookie = await signUpVerified(server, {
      name: "Meera",
      email: "meera@example.com",
      password: "money-journey-password-1",
    });
    await buyThroughSandbox(server, cookie);
    await server.jobsSettled();

    const documents = async () =>
      [
        ...(await (await getWithCookies(server, "/invoices", cookie)).text()).matchAll(
          /\/invoices\/([0-9a-f-]{36})\.pdf/g,
        ),
      ].map((match) => match[0]);
    const [invoiceUrl] = await documents();
    expect(invoiceUrl).toBeDefined();
    const invoice = await getWithCookies(server, invoiceUrl!, cookie);
    expect(invoice.status).toBe(200);
    expect(invoice.headers.get("content-type")).toBe("application/pdf");
    const invoiceText = pdfText(Buffer.from(await invoice.arrayBuffer()));
    expect(invoiceText).toContain("Tax Invoice");
    expect(invoiceText).not.toContain("Credit Note");
    expect(invoiceText).toContain("699.00");

    const refund = await requestSelfRefund(server, cookie);
    expect(refund.status).toBe(200);
    await server.jobsSettled();

    expect(await pageText(server, "/invoices", cookie)).toMatch(/Credit note/);
    expect(await pageText(server, "/account", cookie)).toMatch(/Plan Free/);
    const urls = await documents();
    const creditNoteUrl = urls.find((url) => url !== invoiceUrl);
    expect(creditNoteUrl).toBeDefined();
    const creditNote = await getWithCookies(server, creditNoteUrl!, cookie);
    expect(creditNote.status).toBe(200);
    const creditText = pdfText(Buffer.from(await creditNote.arrayBuffer()));
    expect(creditText).toMatch(/Credit Note No\.: \S+/);
    expect(creditText).not.toContain("Tax Invoice");
    expect(creditText).toContain("699.00");
    // The invoice it corrects is unchanged: the same bytes as before the refund.
    const again = await getWithCookies(server, invoiceUrl!, cookie);
    expect(pdfText(Buffer.from(await again.arrayBuffer()))).toBe(invoiceText);
  });
});
