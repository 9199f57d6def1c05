import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { GST_STATES, gstinCheckCharacter } from "~/lib/gst";
import {
  amountInWords,
  computeTaxInvoice,
  creditNoteFor,
  financialYear,
  formatDocumentNumber,
  INVOICE_NUMBER,
  splitGstInclusive,
} from "./engine.server";
import type { Party } from "./types";

const supplier: Party = {
  legalName: site.company.legalName,
  addressLines: [site.company.address.line1],
  stateCode: "29",
  stateName: "Karnataka",
  gstin: site.company.gstin,
};
const line = { description: "Pro (monthly)", sac: "997331", periodStart: null, periodEnd: null };
const gstinFor = (code: string) => {
  const first14 = `${code}AAPFU0939F1Z`;
  return first14 + gstinCheckCharacter(first14);
};
const b2c = (code: string | null): Party => ({
  legalName: "Ravi",
  addressLines: [],
  stateCode: code,
  stateName: null,
  gstin: null,
});

describe("the tax of an invoice", () => {
  for (const state of GST_STATES) {
    for (const registered of [false, true]) {
      it(`${state.code} ${state.name}, ${registered ? "B2B" : "B2C"}`, () => {
        for (const amountPaise of [69_900, 699_900]) {
          const buyer = registered
            ? { ...b2c(state.code), gstin: gstinFor(state.code) }
            : b2c(state.code);
          const invoice = computeTaxInvoice({
            amountPaise,
            ratePercent: 18,
            supplier,
            buyer,
            line,
          });
          const { tax } = invoice;
          expect(invoice.placeOfSupply).toEqual({ code: state.code, name: state.name });
          expect(invoice.b2b).toBe(registered);
          expect(tax.taxablePaise + tax.cgstPaise + tax.sgstPaise + tax.igstPaise).toBe(
            amountPaise,
          );
          if (state.code === "29") {
            expect(invoice.interState).toBe(false);
            expect([tax.cgstRate, tax.sgstRate, tax.igstRate]).toEqual([9, 9, 0]);
            expect(tax.igstPaise).toBe(0);
            expect(tax.cgstPaise).toBe(tax.sgstPaise);
          } else {
            expect(invoice.interState).toBe(true);
            expect([tax.cgstRate, tax.sgstRate, tax.igstRate]).toEqual([0, 0, 18]);
            expect(tax.cgstPaise + tax.sgstPaise).toBe(0);
          }
        }
      });
    }
  }

  it("splits ₹699 and ₹6,999 as the invoices show them", () => {
    expect(splitGstInclusive(69_900, 18, false)).toMatchObject({
      taxablePaise: 59_238,
      cgstPaise: 5_331,
      sgstPaise: 5_331,
    });
    expect(splitGstInclusive(69_900, 18, true)).toMatchObject({
      taxablePaise: 59_237,
      igstPaise: 10_663,
    });
    expect(splitGstInclusive(699_900, 18, true)).toMatchObject({
      taxablePaise: 593_136,
      igstPaise: 106_764,
    });
  });

  it("takes the place of supply from the GSTIN, else the billing state, else the supplier's", () => {
    const mismatch = { ...b2c("29"), gstin: gstinFor("27") };
    expect(
      computeTaxInvoice({ amountPaise: 69_900, ratePercent: 18, supplier, buyer: mismatch, line })
        .placeOfSupply.code,
    ).toBe("27");
    const unknown = computeTaxInvoice({
      amountPaise: 69_900,
      ratePercent: 18,
      supplier,
      buyer: b2c(null),
      line,
    });
    expect(unknown.placeOfSupply).toEqual({ code: "29", name: "Karnataka" });
    expect(unknown.interState).toBe(false);
    expect(() =>
      computeTaxInvoice({
        amountPaise: 1,
        ratePercent: 18,
        supplier,
        buyer: { ...b2c("27"), gstin: "27AAPFU0939F1ZX" },
        line,
      }),
    ).toThrow(/GSTIN/);
  });

  it("adds up to the amount paid to the paisa, for 1,000 random amounts either way", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.boolean(),
        (amount, interState) => {
          const tax = splitGstInclusive(amount, 18, interState);
          expect(tax.taxablePaise + tax.cgstPaise + tax.sgstPaise + tax.igstPaise).toBe(amount);
          for (const part of [tax.taxablePaise, tax.cgstPaise, tax.sgstPaise, tax.igstPaise])
            expect(Number.isInteger(part) && part >= 0).toBe(true);
          expect(tax.cgstPaise).toBe(tax.sgstPaise);
          expect(
            Math.abs(tax.cgstPaise - (tax.taxablePaise * tax.cgstRate) / 100),
          ).toBeLessThanOrEqual(1);
          expect(
            Math.abs(tax.igstPaise - (tax.taxablePaise * tax.igstRate) / 100),
          ).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("reverses tax in proportion on a credit note; a full refund exactly", () => {
    const invoice = computeTaxInvoice({
      amountPaise: 699_900,
      ratePercent: 18,
      supplier,
      buyer: b2c("27"),
      line,
    });
    expect(creditNoteFor(invoice, 699_900).tax).toEqual(invoice.tax);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 699_900 }), (refund) => {
        const { tax } = creditNoteFor(invoice, refund);
        expect(tax.taxablePaise + tax.igstPaise).toBe(refund);
        expect(tax.igstPaise).toBeLessThanOrEqual(invoice.tax.igstPaise);
      }),
    );
    expect(() => creditNoteFor(invoice, 0)).toThrow();
    expect(() => creditNoteFor(invoice, 699_901)).toThrow();
  });
});

describe("amounts in words (Indian English)", () => {
  it.each([
    [69_900, "Rupees Six Hundred Ninety-Nine Only"],
    [699_900, "Rupees Six Thousand Nine Hundred Ninety-Nine Only"],
    [100, "Rupees One Only"],
    [0, "Rupees Zero Only"],
    [5, "Rupees Zero and Five Paise Only"],
    [1_000_000_000, "Rupees One Crore Only"],
    [
      12_345_678_950,
      "Rupees Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine and Fifty Paise Only",
    ],
    [100_000_000_000, "Rupees One Hundred Crore Only"],
  ])("%i paise", (paise, words) => {
    expect(amountInWords(paise)).toBe(words);
  });

  it("always reads as a sentence", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e13 }), (paise) => {
        const words = amountInWords(paise);
        expect(words).toMatch(/^Rupees [A-Z].* Only$/);
        expect(words).not.toMatch(/ {2}|undefined|Zero (Crore|Lakh|Thousand|Hundred)/);
      }),
    );
  });
});

describe("financial years and numbers", () => {
  it("turns on 1 April in India time", () => {
    expect(financialYear(new Date("2026-03-31T18:29:59.999Z"))).toEqual({
      start: 2025,
      label: "2025-26",
      short: "25-26",
    });
    expect(financialYear(new Date("2026-03-31T18:30:00Z"))).toEqual({
      start: 2026,
      label: "2026-27",
      short: "26-27",
    });
    expect(financialYear(new Date("2027-01-01T00:00:00Z")).short).toBe("26-27");
  });

  it("formats numbers within GST's 16 characters", () => {
    expect(
      formatDocumentNumber({ prefix: "PL", kind: "invoice", fyShort: "26-27", sequence: 42 }),
    ).toBe("PL/26-27/000042");
    expect(
      formatDocumentNumber({ prefix: "PL", kind: "credit_note", fyShort: "26-27", sequence: 7 }),
    ).toBe("PL/CN/26-27/0007");
    expect(() =>
      formatDocumentNumber({
        prefix: "PL",
        kind: "credit_note",
        fyShort: "26-27",
        sequence: 10_000,
      }),
    ).toThrow(/16/);
    expect(() =>
      formatDocumentNumber({ prefix: "P L", kind: "invoice", fyShort: "26-27", sequence: 1 }),
    ).toThrow();
    expect(() =>
      formatDocumentNumber({ prefix: "PL", kind: "invoice", fyShort: "26-27", sequence: 0 }),
    ).toThrow();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999 }), (sequence) => {
        expect(
          formatDocumentNumber({ prefix: "PL", kind: "invoice", fyShort: "26-27", sequence }),
        ).toMatch(INVOICE_NUMBER);
      }),
    );
  });
});
