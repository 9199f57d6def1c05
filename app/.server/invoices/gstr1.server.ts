/**
 * A month's documents as one CSV for GSTR-1, in the sections the return asks for:
 * B2B (one row per invoice to a registered buyer), B2CS (unregistered buyers summed by place of
 * supply and rate, B2C credit notes netted in) and CDNR (credit notes to registered buyers).
 * Amounts are rupees with two decimals, as the GST offline tool takes them.
 */
import { type Cell, csvLines, istDate, placeLabel, rateOf, rupees } from "./csv";
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
];

export function gstr1Csv(rows: readonly InvoiceRow[]): string {
  const lines: Cell[][] = [HEADER];
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const row of rows) {
    if (!row.b2b) continue;
    const { document } = row;
    const credit = row.kind === "credit_note";
    lines.push([
      credit ? "cdnr" : "b2b",
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
    ]);
  }
  const b2cs = new Map<
    string,
    { place: string; rate: number; taxable: number; igst: number; cgst: number; sgst: number }
  >();
  for (const row of rows) {
    if (row.b2b) continue;
    const rate = rateOf(row);
    const key = `${row.placeOfSupply}:${rate}`;
    const sum = b2cs.get(key) ?? {
      place: row.placeOfSupply,
      rate,
      taxable: 0,
      igst: 0,
      cgst: 0,
      sgst: 0,
    };
    const sign = row.kind === "credit_note" ? -1 : 1;
    sum.taxable += sign * row.taxablePaise;
    sum.igst += sign * row.igstPaise;
    sum.cgst += sign * row.cgstPaise;
    sum.sgst += sign * row.sgstPaise;
    b2cs.set(key, sum);
  }
  for (const sum of [...b2cs.values()].sort(
    (a, b) => a.place.localeCompare(b.place) || a.rate - b.rate,
  )) {
    lines.push([
      "b2cs",
      "",
      "",
      "",
      "",
      "",
      rupees(sum.taxable + sum.igst + sum.cgst + sum.sgst),
      placeLabel(sum.place),
      "N",
      sum.rate,
      rupees(sum.taxable),
      rupees(sum.igst),
      rupees(sum.cgst),
      rupees(sum.sgst),
      rupees(0),
    ]);
  }
  return csvLines(lines);
}
