import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { GST_STATES, gstinCheckCharacter, stateByCode } from "~/lib/gst";
import {
  amountInWords,
  computeTaxInvoice,
  creditNoteFor,
  financialYear,
  formatDocumentNumber,
  INVOICE_NUMBER,
  placeOfSupply,
  splitGstInclusive,
} from "./engine.server";
import type { Party, TaxBreakdown } from "./types";

const RATE = site.pricing.gstRatePercent;
const HOME = site.company.address.stateCode;
const PRICES = [69_900, 699_900];

const supplier: Party = {
  legalName: site.company.legalName,
  addressLines: [site.company.address.line1, site.company.address.line2],
  stateCode: HOME,
  stateName: site.company.address.state,
  gstin: site.company.gstin,
};
const line = {
  description: "Pro (monthly)",
  sac: site.invoicing.sac,
  periodStart: "2026-04-01",
  periodEnd: "2026-04-30",
};

/** A valid GSTIN registered in a state: the state code, a fixed PAN and the check character. */
const gstinFor = (code: string) => {
  const first14 = `${code}AAPFU0939F1Z`;
  return first14 + gstinCheckCharacter(first14);
};
const b2c = (code: string | null): Party => ({
  legalName: "Ravi Kumar",
  addressLines: ["12 Example Street"],
  stateCode: code,
  stateName: code === null ? null : (stateByCode(code)?.name ?? null),
  gstin: null,
});
const b2b = (billingCode: string, gstinCode = billingCode): Party => ({
  ...b2c(billingCode),
  legalName: "Example Traders LLP",
  gstin: gstinFor(gstinCode),
});
const invoiceFor = (buyer: Party, amountPaise = 69_900) =>
  computeTaxInvoice({ amountPaise, ratePercent: RATE, supplier, buyer, line });

const sum = (tax: TaxBreakdown) => tax.taxablePaise + tax.cgstPaise + tax.sgstPaise + tax.igstPaise;

describe("splitGstInclusive", () => {
  it("splits ₹699 and ₹6,999 within Karnataka and across states", () => {
    expect(splitGstInclusive(69_900, 18, false)).toEqual({
      taxablePaise: 59_238,
      cgstRate: 9,
      sgstRate: 9,
      igstRate: 0,
      cgstPaise: 5_331,
      sgstPaise: 5_331,
      igstPaise: 0,
      totalPaise: 69_900,
    });
    expect(splitGstInclusive(69_900, 18, true)).toEqual({
      taxablePaise: 59_237,
      cgstRate: 0,
      sgstRate: 0,
      igstRate: 18,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 10_663,
      totalPaise: 69_900,
    });
    expect(splitGstInclusive(699_900, 18, false)).toEqual({
      taxablePaise: 593_136,
      cgstRate: 9,
      sgstRate: 9,
      igstRate: 0,
      cgstPaise: 53_382,
      sgstPaise: 53_382,
      igstPaise: 0,
      totalPaise: 699_900,
    });
    expect(splitGstInclusive(699_900, 18, true)).toEqual({
      taxablePaise: 593_136,
      cgstRate: 0,
      sgstRate: 0,
      igstRate: 18,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 106_764,
      totalPaise: 699_900,
    });
  });

  it("gives all zeros for nothing", () => {
    for (const interState of [false, true]) {
      const tax = splitGstInclusive(0, 18, interState);
      expect(sum(tax)).toBe(0);
      expect([tax.taxablePaise, tax.cgstPaise, tax.sgstPaise, tax.igstPaise]).toEqual([0, 0, 0, 0]);
    }
  });

  it("refuses amounts that are not whole, non-negative paise", () => {
    for (const amount of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => splitGstInclusive(amount, 18, false)).toThrow(/paise/);
    expect(() => splitGstInclusive(100, -1, false)).toThrow(/rate/);
  });

  it("adds up to the amount to the paisa, each tax within a paisa of its rate (1,000 runs)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.boolean(),
        (amount, interState) => {
          const tax = splitGstInclusive(amount, 18, interState);
          const parts = [tax.taxablePaise, tax.cgstPaise, tax.sgstPaise, tax.igstPaise];
          expect(sum(tax)).toBe(amount);
          expect(tax.totalPaise).toBe(amount);
          for (const part of parts) {
            expect(Number.isInteger(part)).toBe(true);
            expect(part).toBeGreaterThanOrEqual(0);
          }
          expect(tax.cgstPaise).toBe(tax.sgstPaise);
          if (interState) {
            expect([tax.cgstRate, tax.sgstRate, tax.igstRate]).toEqual([0, 0, 18]);
            expect(tax.cgstPaise).toBe(0);
            expect(Math.abs(tax.igstPaise - (tax.taxablePaise * 18) / 100)).toBeLessThanOrEqual(1);
          } else {
            expect([tax.cgstRate, tax.sgstRate, tax.igstRate]).toEqual([9, 9, 0]);
            expect(tax.igstPaise).toBe(0);
            expect(Math.abs(tax.cgstPaise - (tax.taxablePaise * 9) / 100)).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("the tax of an invoice in every GST state", () => {
  for (const state of GST_STATES) {
    for (const registered of [false, true]) {
      it(`${state.code} ${state.name}, ${registered ? "B2B" : "B2C"}`, () => {
        for (const amountPaise of PRICES) {
          const buyer = registered ? b2b(state.code) : b2c(state.code);
          const invoice = invoiceFor(buyer, amountPaise);
          const { tax } = invoice;
          expect(invoice.placeOfSupply).toEqual({ code: state.code, name: state.name });
          expect(invoice.b2b).toBe(registered);
          expect(invoice.reverseCharge).toBe(false);
          expect(tax.totalPaise).toBe(amountPaise);
          expect(sum(tax)).toBe(amountPaise);
          expect(invoice.lines).toEqual([{ ...line, quantity: 1, taxablePaise: tax.taxablePaise }]);
          expect(invoice.amountInWords).toBe(amountInWords(amountPaise));
          if (state.code === "29") {
            expect(invoice.interState).toBe(false);
            expect([tax.cgstRate, tax.sgstRate, tax.igstRate]).toEqual([9, 9, 0]);
            expect(tax.cgstPaise).toBeGreaterThan(0);
            expect(tax.cgstPaise).toBe(tax.sgstPaise);
            expect(tax.igstPaise).toBe(0);
          } else {
            expect(invoice.interState).toBe(true);
            expect([tax.cgstRate, tax.sgstRate, tax.igstRate]).toEqual([0, 0, 18]);
            expect(tax.igstPaise).toBeGreaterThan(0);
            expect([tax.cgstPaise, tax.sgstPaise]).toEqual([0, 0]);
          }
        }
      });
    }
  }
});

describe("the place of supply", () => {
  it("is the supplier's state for a buyer with no state on record", () => {
    const invoice = invoiceFor(b2c(null));
    expect(invoice.placeOfSupply).toEqual({ code: "29", name: "Karnataka" });
    expect(invoice.interState).toBe(false);
    expect(invoice.tax.cgstPaise).toBe(5_331);
  });

  it("follows a registered buyer's GSTIN, not the billing state", () => {
    const buyer = b2b("29", "27");
    expect(placeOfSupply(buyer, supplier)).toEqual({ code: "27", name: "Maharashtra" });
    const invoice = invoiceFor(buyer);
    expect(invoice.placeOfSupply).toEqual({ code: "27", name: "Maharashtra" });
    expect(invoice.interState).toBe(true);
    expect(invoice.tax.igstPaise).toBe(10_663);
    // And the other way round: billed in Maharashtra, registered in Karnataka.
    expect(invoiceFor(b2b("27", "29")).interState).toBe(false);
  });

  it("writes a GSTIN in its canonical form and refuses a wrong one", () => {
    const gstin = gstinFor("27");
    const invoice = invoiceFor({ ...b2c("27"), gstin: ` ${gstin.toLowerCase()} ` });
    expect(invoice.buyer.gstin).toBe(gstin);
    expect(invoice.b2b).toBe(true);
    const wrong = gstin.slice(0, 14) + (gstin.endsWith("X") ? "Y" : "X");
    expect(() => invoiceFor({ ...b2c("27"), gstin: wrong })).toThrow(/GSTIN/);
  });

  it("refuses a state code outside the GST table", () => {
    expect(() => invoiceFor(b2c("99"))).toThrow(/state code/);
    expect(() => invoiceFor(b2c(null), 100)).not.toThrow();
    expect(() =>
      computeTaxInvoice({
        amountPaise: 100,
        ratePercent: RATE,
        supplier: { ...supplier, stateCode: null },
        buyer: b2c("27"),
        line,
      }),
    ).toThrow(/supplier/);
  });
});

describe("credit notes", () => {
  const buyers = [b2c("29"), b2c("27"), b2b("33")];

  it("reverse exactly the invoice's figures on a full refund", () => {
    for (const buyer of buyers)
      for (const amount of PRICES) {
        const invoice = invoiceFor(buyer, amount);
        const note = creditNoteFor(invoice, amount);
        expect(note.tax).toEqual(invoice.tax);
        expect(note.lines).toEqual(invoice.lines);
        expect(note).toEqual(invoice);
      }
  });

  it("keep the parties, place of supply and line, and sum exactly on a partial refund", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...buyers),
        fc.constantFrom(...PRICES),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (buyer, amount, fraction) => {
          const invoice = invoiceFor(buyer, amount);
          const refund = Math.max(1, Math.round(amount * fraction));
          const note = creditNoteFor(invoice, refund);
          expect(note.tax).toEqual(splitGstInclusive(refund, 18, invoice.interState));
          expect(sum(note.tax)).toBe(refund);
          expect(note.tax.totalPaise).toBe(refund);
          expect(note.tax.cgstPaise).toBeLessThanOrEqual(invoice.tax.cgstPaise);
          expect(note.tax.igstPaise).toBeLessThanOrEqual(invoice.tax.igstPaise);
          expect(note.supplier).toEqual(invoice.supplier);
          expect(note.buyer).toEqual(invoice.buyer);
          expect(note.placeOfSupply).toEqual(invoice.placeOfSupply);
          expect([note.interState, note.b2b]).toEqual([invoice.interState, invoice.b2b]);
          expect(note.lines).toEqual([
            { ...line, quantity: 1, taxablePaise: note.tax.taxablePaise },
          ]);
          expect(note.amountInWords).toBe(amountInWords(refund));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("refuse a refund of nothing, of a fraction of a paisa or above the invoice", () => {
    const invoice = invoiceFor(b2c("27"), 699_900);
    for (const refund of [0, -1, 0.5, 699_901])
      expect(() => creditNoteFor(invoice, refund)).toThrow(/refund/);
    expect(creditNoteFor(invoice, 1).tax.totalPaise).toBe(1);
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
    [10_000_000, "Rupees One Lakh Only"],
    [2_000_000, "Rupees Twenty Thousand Only"],
    [11_900, "Rupees One Hundred Nineteen Only"],
    [1_01_00_000_00, "Rupees One Crore One Lakh Only"],
    [100_000_000_000, "Rupees One Hundred Crore Only"],
    [123_400_000_000, "Rupees One Hundred Twenty-Three Crore Forty Lakh Only"],
    [100_000_000_000_000, "Rupees One Lakh Crore Only"],
  ])("%i paise", (paise, words) => {
    expect(amountInWords(paise)).toBe(words);
  });

  it("always reads as one sentence", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e15 }), (paise) => {
        const words = amountInWords(paise);
        expect(words.startsWith("Rupees ")).toBe(true);
        expect(words.endsWith(" Only")).toBe(true);
        expect(words).not.toMatch(/ {2}|undefined|Zero (Crore|Lakh|Thousand|Hundred)/);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses what is not whole paise", () => {
    expect(() => amountInWords(-1)).toThrow();
    expect(() => amountInWords(1.5)).toThrow();
  });
});

describe("financial years", () => {
  const fy = (iso: string) => financialYear(new Date(iso));

  it("turns on 1 April in India time", () => {
    expect(fy("2026-03-31T18:29:59.999Z")).toEqual({
      start: 2025,
      label: "2025-26",
      short: "25-26",
    });
    expect(fy("2026-03-31T18:30:00Z")).toEqual({ start: 2026, label: "2026-27", short: "26-27" });
    expect(fy("2026-04-01T00:00:00+05:30").start).toBe(2026);
  });

  it("does not turn on 1 January", () => {
    expect(fy("2026-12-31T18:29:59.999Z").short).toBe("26-27");
    expect(fy("2026-12-31T18:30:00Z").short).toBe("26-27");
    expect(fy("2027-01-01T00:00:00Z")).toEqual({ start: 2026, label: "2026-27", short: "26-27" });
  });

  it("pads the years of a new century", () => {
    expect(fy("2099-06-01T00:00:00Z")).toEqual({ start: 2099, label: "2099-00", short: "99-00" });
    expect(fy("2100-06-01T00:00:00Z").short).toBe("00-01");
  });

  it("refuses an invalid date", () => {
    expect(() => financialYear(new Date("not a date"))).toThrow();
  });
});

describe("document numbers", () => {
  const format = (kind: "invoice" | "credit_note", sequence: number, prefix = "PL") =>
    formatDocumentNumber({ prefix, kind, fyShort: "26-27", sequence });

  it("follow the series formats", () => {
    expect(format("invoice", 42)).toBe("PL/26-27/000042");
    expect(format("invoice", 42)).toHaveLength(15);
    expect(format("credit_note", 7)).toBe("PL/CN/26-27/0007");
    expect(format("credit_note", 7)).toHaveLength(16);
    expect(format("invoice", 999_999)).toBe("PL/26-27/999999");
  });

  it("write a sequence beyond the padding in full while it fits in 16 characters", () => {
    expect(format("invoice", 1_234_567)).toBe("PL/26-27/1234567");
    expect(() => format("invoice", 12_345_678)).toThrow(/16/);
    expect(() => format("credit_note", 10_000)).toThrow(/16/);
    expect(() => format("invoice", 1, "PLX")).not.toThrow();
    expect(() => format("credit_note", 1, "PLX")).toThrow(/16/);
  });

  it("use only letters, digits, / and -", () => {
    for (const prefix of ["P L", "PL_", "PL.", "PĹ", "PL#"])
      expect(() => format("invoice", 1, prefix)).toThrow(/A-Z/);
  });

  it("refuse a sequence below 1 or not whole", () => {
    for (const sequence of [0, -1, 1.5, Number.NaN])
      expect(() => format("invoice", sequence)).toThrow(/sequence/);
  });

  it("fit the GST pattern for every sequence of the year", () => {
    expect(INVOICE_NUMBER.test("PL/26-27/000042")).toBe(true);
    expect(INVOICE_NUMBER.test("PL/CN/26-27/00007")).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999 }), (sequence) => {
        expect(format("invoice", sequence)).toMatch(INVOICE_NUMBER);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("a coupon's discount", () => {
  const discounted = (buyer: Party, paid: number) =>
    computeTaxInvoice({
      amountPaise: paid,
      ratePercent: RATE,
      supplier,
      buyer,
      line,
      list: { pricePaise: 69_900, label: "Coupon LAUNCH20" },
    });

  it("shows the listed taxable value and the discount before tax; GST is on the discounted value", () => {
    for (const buyer of [b2c(HOME), b2c("27")]) {
      const invoice = discounted(buyer, 55_920);
      const [first] = invoice.lines;
      const listed = splitGstInclusive(69_900, RATE, invoice.interState);
      const paid = splitGstInclusive(55_920, RATE, invoice.interState);
      expect(first?.discount).toEqual({
        label: "Coupon LAUNCH20",
        listPricePaise: 69_900,
        listTaxablePaise: listed.taxablePaise,
        discountPaise: listed.taxablePaise - paid.taxablePaise,
      });
      expect(first?.taxablePaise).toBe(paid.taxablePaise);
      expect(invoice.tax).toEqual(paid);
      expect(sum(invoice.tax)).toBe(55_920);
    }
    // ₹699 less 20% is ₹559.20: taxable ₹473.90 (₹592.38 listed, ₹118.48 off), GST ₹85.30.
    const home = discounted(b2c(HOME), 55_920);
    expect(home.lines[0]?.discount?.discountPaise).toBe(11_848);
    expect(home.tax.taxablePaise).toBe(47_390);
    expect(home.tax.cgstPaise + home.tax.sgstPaise).toBe(8_530);
  });

  it("is left out when the full price was paid, and from a refund's credit note", () => {
    expect(discounted(b2c(HOME), 69_900).lines[0]?.discount).toBeUndefined();
    const invoice = discounted(b2c(HOME), 55_920);
    const note = creditNoteFor(invoice, 55_920);
    expect(note.lines[0]?.discount).toBeUndefined();
    expect(note.tax).toEqual(invoice.tax);
  });
});
