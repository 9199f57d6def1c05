import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InvoiceRow } from "../db/schema";
import { computeExportInvoice, computeTaxInvoice, creditNoteFor } from "./engine.server";
import { gstr1Csv } from "./gstr1.server";
import {
  B2B_HEADER,
  B2CS_HEADER,
  CDNR_HEADER,
  CDNUR_HEADER,
  DOCS_HEADER,
  EXP_HEADER,
  gstr1OfflineFiles,
  HSN_HEADER,
} from "./gstr1-offline.server";
import { site } from "~/config/site";
import { supplierParty } from "./issue.server";
import { periodTotals } from "./queries.server";
import type { InvoiceDocument, Party, TaxInvoice } from "./types";
import { parseCsv } from "../../../tests/support/csv";

const line = { description: "Pro (monthly)", sac: "997331", periodStart: null, periodEnd: null };
const buyer = (stateCode: string, stateName: string, gstin: string | null = null): Party => ({
  legalName: gstin ? "Meera Traders LLP" : "Ravi",
  addressLines: [],
  stateCode,
  stateName,
  gstin,
});

let sequence = 0;
function row(
  computed: TaxInvoice,
  kind: "invoice" | "credit_note",
  original?: InvoiceRow,
): InvoiceRow {
  sequence += 1;
  const number =
    kind === "invoice"
      ? `PL/26-27/${String(sequence).padStart(6, "0")}`
      : `PL/CN/26-27/000${sequence}`;
  const document: InvoiceDocument = {
    ...computed,
    kind,
    number,
    issuedAt: "2026-11-20T06:30:00.000Z",
    paymentId: null,
    original: original
      ? { number: original.number, issuedAt: original.issuedAt.toISOString() }
      : null,
    reason: null,
  };
  const { tax } = computed;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, "0")}`,
    kind,
    number,
    series: kind,
    sequence,
    userId: null,
    teamId: null,
    providerPaymentId: null,
    providerRefundId: null,
    providerDisputeId: null,
    originalInvoiceId: original?.id ?? null,
    issuedAt: new Date(document.issuedAt),
    b2b: computed.b2b,
    placeOfSupply: computed.placeOfSupply.code,
    taxablePaise: tax.taxablePaise,
    cgstPaise: tax.cgstPaise,
    sgstPaise: tax.sgstPaise,
    igstPaise: tax.igstPaise,
    totalPaise: tax.totalPaise,
    currency: computed.export?.currency ?? "INR",
    currencyAmount: computed.export?.amount ?? null,
    document,
    createdAt: new Date(),
  };
}

const invoice = (amountPaise: number, party: Party) =>
  computeTaxInvoice({
    amountPaise,
    ratePercent: 18,
    supplier: supplierParty(),
    buyer: party,
    line,
  });

describe("the GSTR-1 CSV of a month", () => {
  const b2b = row(invoice(699_900, buyer("27", "Maharashtra", "27AAPFU0939F1ZV")), "invoice");
  const karnataka1 = row(invoice(69_900, buyer("29", "Karnataka")), "invoice");
  const karnataka2 = row(invoice(69_900, buyer("29", "Karnataka")), "invoice");
  const kerala = row(invoice(69_900, buyer("32", "Kerala")), "invoice");
  const b2bCredit = row(creditNoteFor(b2b.document, 100_000), "credit_note", b2b);
  const b2cCredit = row(creditNoteFor(karnataka2.document, 69_900), "credit_note", karnataka2);
  const rows = [b2b, karnataka1, karnataka2, kerala, b2bCredit, b2cCredit];
  const csv = gstr1Csv(rows);
  const lines = csv
    .trimEnd()
    .split("\r\n")
    .map((text) => text.split(","));

  it("has one B2B row per invoice to a registered buyer, with its GSTIN and IGST", () => {
    const rowsOf = (section: string) => lines.filter((cells) => cells[0] === section);
    const [b2bRow] = rowsOf("b2b");
    expect(rowsOf("b2b")).toHaveLength(1);
    expect(b2bRow?.slice(1, 11)).toEqual([
      "27AAPFU0939F1ZV",
      "Meera Traders LLP",
      b2b.number,
      "20-Nov-2026",
      "",
      "6999.00",
      "27-Maharashtra",
      "N",
      "18",
      (b2b.taxablePaise / 100).toFixed(2),
    ]);
    expect(b2bRow?.[11]).toBe((b2b.igstPaise / 100).toFixed(2));
    expect(b2bRow?.[12]).toBe("0.00");
  });

  it("sums B2C by place of supply and rate, with B2C credit notes netted in", () => {
    const b2cs = lines.filter((cells) => cells[0] === "b2cs");
    expect(b2cs.map((cells) => cells[7])).toEqual(["29-Karnataka", "32-Kerala"]);
    // Two Karnataka sales, one fully credited: one sale's worth remains, as CGST + SGST.
    expect(b2cs[0]?.[6]).toBe("699.00");
    expect(b2cs[0]?.[10]).toBe((karnataka1.taxablePaise / 100).toFixed(2));
    expect(b2cs[0]?.[12]).toBe((karnataka1.cgstPaise / 100).toFixed(2));
    expect(b2cs[0]?.[13]).toBe((karnataka1.sgstPaise / 100).toFixed(2));
    expect(b2cs[1]?.[11]).toBe((kerala.igstPaise / 100).toFixed(2));
  });

  it("lists credit notes to registered buyers against their invoice", () => {
    const cdnr = lines.filter((cells) => cells[0] === "cdnr");
    expect(cdnr).toHaveLength(1);
    expect(cdnr[0]?.slice(1, 7)).toEqual([
      "27AAPFU0939F1ZV",
      "Meera Traders LLP",
      b2bCredit.number,
      "20-Nov-2026",
      b2b.number,
      "1000.00",
    ]);
  });

  it("adds up to the period's totals", () => {
    const totals = periodTotals(rows);
    expect(totals.totalPaise).toBe(699_900 + 69_900 * 3 - 100_000 - 69_900);
    expect(totals.taxablePaise + totals.cgstPaise + totals.sgstPaise + totals.igstPaise).toBe(
      totals.totalPaise,
    );
    const sectionSum = lines
      .filter((cells) => cells[0] === "b2b" || cells[0] === "b2cs")
      .reduce((sum, cells) => sum + Math.round(Number(cells[6]) * 100), 0);
    const credited = lines
      .filter((cells) => cells[0] === "cdnr")
      .reduce((sum, cells) => sum + Math.round(Number(cells[6]) * 100), 0);
    expect(sectionSum - credited).toBe(totals.totalPaise);
  });

  it("never lets a buyer's name start a spreadsheet formula", () => {
    const evil = row(
      invoice(69_900, {
        ...buyer("27", "Maharashtra", "27AAPFU0939F1ZV"),
        legalName: "=HYPERLINK(1)",
      }),
      "invoice",
    );
    expect(gstr1Csv([evil])).toContain("'=HYPERLINK(1)");
  });
});

describe("the GSTR-1 CSV against spreadsheet formulas (OWASP CSV injection)", () => {
  const registered = (legalName: string) =>
    row(
      invoice(69_900, { ...buyer("27", "Maharashtra", "27AAPFU0939F1ZV"), legalName }),
      "invoice",
    );
  /** The receiver_name cell of a B2B invoice to `legalName`, as a spreadsheet reads it. */
  const nameCell = (legalName: string) => {
    const records = parseCsv(gstr1Csv([registered(legalName)]));
    expect(records).toHaveLength(2);
    expect(records[1]).toHaveLength(19);
    return records[1]?.[2];
  };
  const TRIGGERS = ["=", "+", "-", "@", "\t", "\r"];

  it.each([
    ["-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0"],
    ["-1", "'-1"],
    ["+91 98765 43210", "'+91 98765 43210"],
    ["=1+1", "'=1+1"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\t=cmd", "'\t=cmd"],
    ["\r=cmd", "'\r=cmd"],
    ['=HYPERLINK("http://x.invalid","Pay, now")', `'=HYPERLINK("http://x.invalid","Pay, now")`],
    ["Meera Traders LLP", "Meera Traders LLP"],
    ["3M India", "3M India"],
    ["A-1 Traders", "A-1 Traders"],
    ["'quoted' & Co", "'quoted' & Co"],
  ])("writes the buyer name %j as the text %j", (legalName, expected) => {
    expect(nameCell(legalName)).toBe(expected);
  });

  it("prefixes every text cell that starts with = + - @ tab or CR, and changes no other", () => {
    const char = fc.oneof(
      fc.constantFrom(...TRIGGERS, "\n", ",", '"', "'", "1", ".", " "),
      fc.string({ minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.string({ unit: char, maxLength: 40 }), (legalName) => {
        const dangerous = TRIGGERS.some((trigger) => legalName.startsWith(trigger));
        expect(nameCell(legalName)).toBe(dangerous ? `'${legalName}` : legalName);
      }),
      { numRuns: 500 },
    );
  });

  it("writes amounts and rates as numbers, negative ones too, never prefixed", () => {
    // A B2C credit note in a month without its invoice: the place's B2CS sum is negative.
    const sale = row(invoice(69_900, buyer("29", "Karnataka")), "invoice");
    const credit = row(creditNoteFor(sale.document, 69_900), "credit_note", sale);
    const [, b2cs] = parseCsv(gstr1Csv([credit]));
    expect(b2cs?.[0]).toBe("b2cs");
    expect(b2cs?.[6]).toBe("-699.00");
    expect(b2cs?.[9]).toBe("18");
    expect(b2cs?.[10]).toBe((-credit.taxablePaise / 100).toFixed(2));
    expect(b2cs?.[14]).toBe("0.00");
  });
});

/** An export of services (issue 56): a buyer in Germany paying in dollars, under the LUT. */
const exportOf = (amount: number, inrPaise: number) =>
  computeExportInvoice({
    amount,
    currency: "USD",
    inrPaise,
    rateSource: "Razorpay's conversion of this payment",
    lut: { arn: "AD2904260012345", financialYear: "2026-27" },
    supplier: supplierParty(),
    buyer: {
      legalName: "Werkbank GmbH",
      addressLines: ["Torstraße 1", "10119 Berlin"],
      stateCode: null,
      stateName: null,
      gstin: null,
      country: { code: "DE", name: "Germany" },
      taxId: "DE123456789",
    },
    line,
  });

describe("the GSTR-1 files for the offline tool", () => {
  const b2b = row(invoice(699_900, buyer("27", "Maharashtra", "27AAPFU0939F1ZV")), "invoice");
  const karnataka = row(invoice(69_900, buyer("29", "Karnataka")), "invoice");
  const karnataka2 = row(invoice(69_900, buyer("29", "Karnataka")), "invoice");
  const kerala = row(invoice(69_900, buyer("32", "Kerala")), "invoice");
  const exported = row(exportOf(89_00, 7_520_50), "invoice");
  const exported2 = row(exportOf(9_00, 76_050), "invoice");
  const b2bCredit = row(creditNoteFor(b2b.document, 100_000), "credit_note", b2b);
  const b2cCredit = row(creditNoteFor(karnataka2.document, 69_900), "credit_note", karnataka2);
  const exportCredit = row(creditNoteFor(exported2.document, 9_00), "credit_note", exported2);
  const rows = [
    b2b,
    karnataka,
    karnataka2,
    kerala,
    exported,
    exported2,
    b2bCredit,
    b2cCredit,
    exportCredit,
  ];
  const files = gstr1OfflineFiles(rows);
  const sheet = (name: string) => {
    const [header, ...records] = parseCsv(files[name] ?? "");
    return { header, records };
  };
  const paise = (cell: string | undefined) => Math.round(Number(cell) * 100);
  const totals = periodTotals(rows);

  it("has one file per section of the tool, each with the tool's own header", () => {
    expect(Object.keys(files)).toEqual([
      "b2b.csv",
      "b2cs.csv",
      "cdnr.csv",
      "exp.csv",
      "cdnur.csv",
      "hsn(b2b).csv",
      "hsn(b2c).csv",
      "docs.csv",
    ]);
    expect(sheet("exp.csv").header).toEqual([...EXP_HEADER]);
    expect(sheet("cdnur.csv").header).toEqual([...CDNUR_HEADER]);
    expect(sheet("b2b.csv").header).toEqual([...B2B_HEADER]);
    expect(sheet("b2cs.csv").header).toEqual([...B2CS_HEADER]);
    expect(sheet("cdnr.csv").header).toEqual([...CDNR_HEADER]);
    expect(sheet("hsn(b2b).csv").header).toEqual([...HSN_HEADER]);
    expect(sheet("hsn(b2c).csv").header).toEqual([...HSN_HEADER]);
    expect(sheet("docs.csv").header).toEqual([...DOCS_HEADER]);
  });

  it("writes B2B invoices and credit notes as the tool takes them", () => {
    expect(sheet("b2b.csv").records).toEqual([
      [
        "27AAPFU0939F1ZV",
        "Meera Traders LLP",
        b2b.number,
        "20-Nov-2026",
        "6999.00",
        "27-Maharashtra",
        "N",
        "",
        "Regular B2B",
        "",
        "18",
        (b2b.taxablePaise / 100).toFixed(2),
        "0.00",
      ],
    ]);
    expect(sheet("cdnr.csv").records).toEqual([
      [
        "27AAPFU0939F1ZV",
        "Meera Traders LLP",
        b2bCredit.number,
        "20-Nov-2026",
        "C",
        "27-Maharashtra",
        "N",
        "Regular B2B",
        "1000.00",
        "",
        "18",
        (b2bCredit.taxablePaise / 100).toFixed(2),
        "0.00",
      ],
    ]);
    // Karnataka's two invoices less one credit note, and Kerala's one.
    expect(sheet("b2cs.csv").records.map((cells) => cells.slice(0, 5))).toEqual([
      ["OE", "29-Karnataka", "", "18", (karnataka.taxablePaise / 100).toFixed(2)],
      ["OE", "32-Kerala", "", "18", (kerala.taxablePaise / 100).toFixed(2)],
    ]);
  });

  it("gives the combined CSV each export's currency, amount, rate and rupee value", () => {
    const records = parseCsv(gstr1Csv(rows));
    expect(records[0]?.slice(15)).toEqual([
      "currency",
      "foreign_amount",
      "exchange_rate",
      "inr_value",
    ]);
    const exp = records.filter((cells) => cells[0] === "exp");
    expect(exp.map((cells) => [cells[3], ...cells.slice(15)])).toEqual([
      [exported.number, "USD", "89.00", "84.5000", "7520.50"],
      [exported2.number, "USD", "9.00", "84.5000", "760.50"],
    ]);
    expect(records.find((cells) => cells[0] === "cdnur-exp")?.slice(15)).toEqual([
      "USD",
      "9.00",
      "84.5000",
      "760.50",
    ]);
    expect(records.find((cells) => cells[0] === "b2b")?.slice(15)).toEqual([
      "INR",
      "",
      "",
      "6999.00",
    ]);
    expect(
      records.filter((cells) => cells[0] === "b2cs").every((cells) => cells[15] === "INR"),
    ).toBe(true);
  });

  it("reports exports in Table 6A only: one WOPAY row per export invoice at its rupee value", () => {
    expect(sheet("exp.csv").records).toEqual([
      ["WOPAY", exported.number, "20-Nov-2026", "7520.50", "", "", "", "0", "7520.50", "0.00"],
      ["WOPAY", exported2.number, "20-Nov-2026", "760.50", "", "", "", "0", "760.50", "0.00"],
    ]);
    expect(sheet("cdnur.csv").records).toEqual([
      ["EXPWOP", exportCredit.number, "20-Nov-2026", "C", "", "760.50", "", "0", "760.50", "0.00"],
    ]);
    // No domestic section names an export.
    const numbers = [exported, exported2, exportCredit].map((each) => each.number);
    for (const name of ["b2b.csv", "b2cs.csv", "cdnr.csv"])
      expect(files[name]).not.toMatch(new RegExp(numbers.join("|")));
    expect(sheet("b2cs.csv").records.some((cells) => cells[1]?.startsWith("96"))).toBe(false);
  });

  it("adds up to the month's totals: taxable value, each tax, and every document issued", () => {
    const taxable =
      sheet("b2b.csv").records.reduce((sum, cells) => sum + paise(cells[11]), 0) -
      sheet("cdnr.csv").records.reduce((sum, cells) => sum + paise(cells[11]), 0) +
      sheet("b2cs.csv").records.reduce((sum, cells) => sum + paise(cells[4]), 0) +
      sheet("exp.csv").records.reduce((sum, cells) => sum + paise(cells[8]), 0) -
      sheet("cdnur.csv").records.reduce((sum, cells) => sum + paise(cells[8]), 0);
    expect(taxable).toBe(totals.taxablePaise);
    const hsn = [...sheet("hsn(b2b).csv").records, ...sheet("hsn(b2c).csv").records];
    const column = (index: number) => hsn.reduce((sum, cells) => sum + paise(cells[index]), 0);
    expect(column(4)).toBe(totals.totalPaise);
    expect(column(5)).toBe(totals.taxablePaise);
    expect(column(6)).toBe(totals.igstPaise);
    expect(column(7)).toBe(totals.cgstPaise);
    expect(column(8)).toBe(totals.sgstPaise);
    // Services: SAC, no unit of quantity.
    expect(hsn[0]?.slice(0, 4)).toEqual(["997331", site.invoicing.sacDescription, "NA", "0"]);
    // Table 13: each series from its first to its last number, nothing cancelled.
    expect(sheet("docs.csv").records).toEqual([
      ["Invoices for outward supply", b2b.number, exported2.number, "6", "0"],
      ["Credit Note", b2bCredit.number, exportCredit.number, "3", "0"],
    ]);
    const documents = sheet("docs.csv").records.reduce((sum, cells) => sum + Number(cells[3]), 0);
    expect(documents).toBe(totals.documents);
  });
});
