/**
 * A month's documents as one CSV for GSTR-1, in the sections the return asks for:
 * B2B (one row per invoice to a registered buyer), B2CS (unregistered buyers summed by place of
 * supply and rate, B2C credit notes netted in), CDNR (credit notes to registered buyers) and EXP
 * (exports of services under the LUT, one row per invoice or credit note, at rupee value).
 * Amounts are rupees with two decimals, as the GST offline tool takes them.
 */
import { type Cell, csvLines, isExport, istDate, placeLabel, rateOf, rupees } from "./csv";
import { sumBy } from "./sums";
import { decimalOf } from "~/lib/money";
import type { InvoiceRow } from "../db/schema";

const HEADER = [
  "section",
  "gstin_of_recipient",
  "receiver_name",
  "document_number",
  "document_date",
  "original_invoice",
  "document_value",
  "place_of_supply",
  "reverse_charge",
  "rate",
  "taxable_value",
  "igst",
  "cgst",
  "sgst",
  "cess",
  // Issue 56: what a document was in its own currency (an export's), the rate and its rupee value.
  "currency",
  "foreign_amount",
  "exchange_rate",
  "inr_value",
];

/** The currency columns of a document; rupees throughout for a domestic one. */
function currencyCells(row: InvoiceRow | null): Cell[] {
  const facts = row?.document.export;
  if (!row || !facts) return ["INR", "", "", row ? rupees(row.totalPaise) : ""];
  return [
    facts.currency,
    decimalOf(facts.amount, facts.currency),
    facts.rate,
    rupees(row.totalPaise),
  ];
}

export function gstr1Csv(rows: readonly InvoiceRow[]): string {
  const lines: Cell[][] = [HEADER];
  const byId = new Map(rows.map((row) => [row.id, row]));
  // One row per document to a registered buyer (B2B, CDNR) and per export (issue 56: EXP, its
  // credit notes as CDNUR; zero-rated under the LUT, never in B2CS below).
  for (const row of rows) {
    const exported = !row.b2b && isExport(row);
    if (!row.b2b && !exported) continue;
    const { document } = row;
    const credit = row.kind === "credit_note";
    const section = exported ? (credit ? "cdnur-exp" : "exp") : credit ? "cdnr" : "b2b";
    lines.push([
      section,
      document.buyer.gstin ?? "",
      document.buyer.legalName,
      row.number,
      istDate(row.issuedAt),
      credit
        ? (document.original?.number ?? byId.get(row.originalInvoiceId ?? "")?.number ?? "")
        : "",
      rupees(row.totalPaise),
      placeLabel(row.placeOfSupply),
      "N",
      rateOf(row),
      rupees(row.taxablePaise),
      rupees(row.igstPaise),
      rupees(row.cgstPaise),
      rupees(row.sgstPaise),
      rupees(0),
      ...currencyCells(row),
    ]);
  }
  // Unregistered buyers by place of supply and rate (the key sorts as "29:18"), credit notes netted.
  for (const sum of sumBy(
    rows.filter((row) => !row.b2b && !isExport(row)),
    (row) => `${row.placeOfSupply}:${rateOf(row)}`,
  )) {
    lines.push([
      "b2cs",
      "",
      "",
      "",
      "",
      "",
      rupees(sum.total),
      placeLabel(sum.first.placeOfSupply),
      "N",
      rateOf(sum.first),
      rupees(sum.taxable),
      rupees(sum.igst),
      rupees(sum.cgst),
      rupees(sum.sgst),
      rupees(0),
      "INR",
      "",
      "",
      rupees(sum.total),
    ]);
  }
  return csvLines(lines);
}
