import { describe, expect, it } from "vitest";
import type { InvoiceRow } from "../db/schema";
import { computeTaxInvoice, creditNoteFor } from "./engine.server";
import { gstr1Csv } from "./gstr1.server";
import { supplierParty } from "./issue.server";
import { periodTotals } from "./queries.server";
import type { InvoiceDocument, Party, TaxInvoice } from "./types";

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
    providerPaymentId: null,
    providerRefundId: null,
    originalInvoiceId: original?.id ?? null,
    issuedAt: new Date(document.issuedAt),
    b2b: computed.b2b,
    placeOfSupply: computed.placeOfSupply.code,
    taxablePaise: tax.taxablePaise,
    cgstPaise: tax.cgstPaise,
    sgstPaise: tax.sgstPaise,
    igstPaise: tax.igstPaise,
    totalPaise: tax.totalPaise,
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
  const b2bCredit = row(
    creditNoteFor(b2b.document as InvoiceDocument, 100_000),
    "credit_note",
    b2b,
  );
  const b2cCredit = row(
    creditNoteFor(karnataka2.document as InvoiceDocument, 69_900),
    "credit_note",
    karnataka2,
  );
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
