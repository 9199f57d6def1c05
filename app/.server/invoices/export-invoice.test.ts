/**
 * Export invoices (issue 56): an amount paid abroad becomes a zero-rated document in its currency
 * with its rupee value and rate, the LUT endorsement and the buyer's country; its credit note
 * reverses it at the same rate. Rendered and read back with pdftotext.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pdfText } from "../../../tests/support/pdf";
import {
  computeExportInvoice,
  creditNoteFor,
  foreignAmountInWords,
  inrAtRate,
  LUT_ENDORSEMENT,
  parseRate,
  rateOf,
  rateText,
} from "./engine.server";
import { FOREIGN_CURRENCIES } from "~/lib/money";
import { renderInvoicePdf } from "./pdf.server";
import type { InvoiceDocument, Party } from "./types";

const supplier: Party = {
  legalName: "Pinout Labs Private Limited",
  addressLines: ["42 Residency Road", "Bengaluru, Karnataka 560025"],
  stateCode: "29",
  stateName: "Karnataka",
  gstin: "29AAPCP1234F1ZC",
  email: "support@pinout.dev",
};
const buyer: Party = {
  legalName: "Werkbank GmbH",
  addressLines: ["Torstraße 1", "10119 Berlin"],
  stateCode: null,
  stateName: null,
  gstin: null,
  country: { code: "DE", name: "Germany" },
  taxId: "DE123456789",
};
const lut = { arn: "AD2904260012345", financialYear: "2026-27" };
const line = {
  description: "Licensing services: Pinout Pro (yearly) subscription",
  sac: "997331",
  periodStart: "2026-12-07",
  periodEnd: "2027-12-06",
};

const invoice = computeExportInvoice({
  amount: 89_00,
  currency: "USD",
  inrPaise: 7_520_50,
  rateSource: "Razorpay's conversion of this payment",
  lut,
  supplier,
  buyer,
  line,
});

describe("an export invoice", () => {
  it("is zero-rated, in rupees at Razorpay's conversion, with the rate that makes", () => {
    expect(invoice.tax).toEqual({
      taxablePaise: 7_520_50,
      cgstRate: 0,
      sgstRate: 0,
      igstRate: 0,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 7_520_50,
    });
    expect(invoice.placeOfSupply).toEqual({ code: "96", name: "Foreign Country" });
    expect(invoice.b2b).toBe(false);
    expect(invoice.export).toMatchObject({
      currency: "USD",
      amount: 89_00,
      rate: "84.5000",
      amountInWords: "US Dollars Eighty-Nine Only",
      lut,
    });
  });

  it("writes amounts in words in the buyer's currency, in international numbering", () => {
    expect(foreignAmountInWords(1_234_567_50, "EUR")).toBe(
      "Euros One Million Two Hundred Thirty-Four Thousand Five Hundred Sixty-Seven and Fifty Cents Only",
    );
    expect(foreignAmountInWords(1, "USD")).toBe("US Dollars Zero and One Cent Only");
  });

  it("refuses a buyer with a GSTIN: that is a sale in India", () => {
    expect(() =>
      computeExportInvoice({
        amount: 900,
        currency: "USD",
        inrPaise: 76_050,
        rateSource: "x",
        lut,
        supplier,
        buyer: { ...buyer, gstin: "29AAPCP1234F1ZC" },
        line,
      }),
    ).toThrow(/GSTIN/);
  });
});

describe("an export's credit note", () => {
  it("reverses a full refund exactly, and a part at the invoice's own rate", () => {
    const full = creditNoteFor(invoice, 89_00);
    expect(full.tax.totalPaise).toBe(7_520_50);
    expect(full.export).toMatchObject({ amount: 89_00, rate: "84.5000" });
    const part = creditNoteFor(invoice, 44_50);
    expect(part.tax.totalPaise).toBe(3_760_25);
    expect(part.export?.amountInWords).toBe("US Dollars Forty-Four and Fifty Cents Only");
    expect(() => creditNoteFor(invoice, 89_01)).toThrow(/refund must be/);
  });

  it("never credits more rupees than invoiced, whatever the refunds (integers only)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 2_000_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.constantFrom(...FOREIGN_CURRENCIES),
        (amount, inr, refundSeed, currency) => {
          const refund = 1 + (refundSeed % amount);
          const doc = computeExportInvoice({
            amount,
            currency,
            inrPaise: inr,
            rateSource: "x",
            lut,
            supplier,
            buyer,
            line,
          });
          const note = creditNoteFor(doc, refund);
          expect(Number.isSafeInteger(note.tax.totalPaise)).toBe(true);
          expect(note.tax.totalPaise).toBeLessThanOrEqual(inr);
          expect(note.tax.totalPaise).toBeGreaterThanOrEqual(0);
          if (refund === amount) expect(note.tax.totalPaise).toBe(inr);
        },
      ),
    );
  });

  it("reads an entered reference rate exactly, and values cents at it in whole paise", () => {
    expect(parseRate("84.5025")).toBe(845_025);
    expect(parseRate(" 91.2 ")).toBe(912_000);
    expect(parseRate("84")).toBe(840_000);
    for (const bad of ["84.50251", "-1", "0", "1e2", "84,50", "", "."])
      expect(parseRate(bad)).toBeNull();
    expect(rateText(845_025)).toBe("84.5025");
    // $9.00 at ₹84.5025: 900 × 845025 ÷ 10000 = 76052.25 paise.
    expect(inrAtRate(9_00, 845_025)).toBe(76_052);
    expect(inrAtRate(1, 5_000)).toBe(1);
  });

  it("rounds the rate half up to four places, exactly", () => {
    expect(rateOf(100, 8_450)).toBe("84.5000");
    expect(rateOf(3, 10)).toBe("3.3333");
    expect(rateOf(3, 20)).toBe("6.6667");
  });
});

const issued = (doc: typeof invoice, kind: InvoiceDocument["kind"]): InvoiceDocument => ({
  ...doc,
  kind,
  number: kind === "invoice" ? "PL/26-27/000043" : "PL/CN/26-27/0002",
  issuedAt: "2026-12-07T06:00:00.000Z",
  paymentId: "pay_Export0001",
  original:
    kind === "invoice" ? null : { number: "PL/26-27/000043", issuedAt: "2026-12-07T06:00:00.000Z" },
  reason: kind === "invoice" ? null : "Refund",
});

describe("the export invoice's PDF", () => {
  it("carries the endorsement, the ARN, the country, the USD amount, the INR value and the rate", async () => {
    const text = pdfText(await renderInvoicePdf(issued(invoice, "invoice")));
    expect(text).toContain("Export Invoice");
    expect(text.replace(/\s+/g, " ")).toContain(`${LUT_ENDORSEMENT.toUpperCase()}.`);
    expect(text).toContain("LUT ARN: AD2904260012345 (financial year 2026-27)");
    expect(text).toContain("Country: Germany");
    expect(text).toContain("VAT / tax id: DE123456789");
    expect(text).toContain("Place of supply: outside India (Germany)");
    expect(text).toContain("$89.00");
    expect(text).toContain("₹84.5000 per USD");
    expect(text).toContain("₹7,520.50");
    expect(text).toContain("US Dollars Eighty-Nine Only");
    // Nothing of a domestic invoice: no Indian state for the buyer, no CGST or SGST.
    expect(text).not.toMatch(/CGST|SGST|GSTIN: Unregistered|State: Foreign/);
  });

  it("names its credit note as an export's, against the invoice, in the same currency", async () => {
    const text = pdfText(
      await renderInvoicePdf(issued(creditNoteFor(invoice, 89_00), "credit_note")),
    );
    expect(text).toContain("Credit Note (Export)");
    expect(text).toContain("Against invoice: PL/26-27/000043");
    expect(text).toContain("$89.00");
    expect(text).toContain("₹7,520.50");
  });
});
