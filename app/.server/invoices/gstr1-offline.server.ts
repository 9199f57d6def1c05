/**
 * A month's GSTR-1 as the GST portal's offline tool imports it: one CSV per section, in the
 * tool's column layout, zipped (issue 33, point 9). Since the May 2025 return period, Table 12
 * (the HSN/SAC summary) is split into B2B and B2C, and Table 13 (documents issued) is mandatory.
 *
 * - b2b: one row per invoice to a registered buyer (Table 4A).
 * - b2cs: unregistered buyers summed by place of supply and rate, B2C credit notes netted in
 *   (Table 7; no invoice here reaches B2C Large's ₹1 lakh inter-state threshold).
 * - cdnr: credit notes to registered buyers (Table 9B).
 * - exp: exports of services under the LUT (Table 6A, WOPAY, rate 0; no port or shipping bill
 *   for a service), at their rupee value (issue 56).
 * - cdnur: credit notes for exports (Table 9B, unregistered, type EXPWOP).
 * - hsn(b2b), hsn(b2c): per SAC and rate, credit notes netted in (Table 12); exports, made to
 *   unregistered buyers, in the B2C part at rate 0.
 * - docs: each series' first and last number issued in the month, how many, how many cancelled
 *   (Table 13). Documents are never cancelled here (a correction is a credit note): 0.
 */
import { site } from "~/config/site";
import type { InvoiceRow } from "../db/schema";
import { type Cell, csvLines, isExport, istDate, placeLabel, rateOf, rupees } from "./csv";
import { sumBy } from "./sums";

export const B2B_HEADER = [
  "GSTIN/UIN of Recipient",
  "Receiver Name",
  "Invoice Number",
  "Invoice date",
  "Invoice Value",
  "Place Of Supply",
  "Reverse Charge",
  "Applicable % of Tax Rate",
  "Invoice Type",
  "E-Commerce GSTIN",
  "Rate",
  "Taxable Value",
  "Cess Amount",
] as const;

export const B2CS_HEADER = [
  "Type",
  "Place Of Supply",
  "Applicable % of Tax Rate",
  "Rate",
  "Taxable Value",
  "Cess Amount",
  "E-Commerce GSTIN",
] as const;

export const CDNR_HEADER = [
  "GSTIN/UIN of Recipient",
  "Receiver Name",
  "Note Number",
  "Note Date",
  "Note Type",
  "Place Of Supply",
  "Reverse Charge",
  "Note Supply Type",
  "Note Value",
  "Applicable % of Tax Rate",
  "Rate",
  "Taxable Value",
  "Cess Amount",
] as const;

export const HSN_HEADER = [
  "HSN",
  "Description",
  "UQC",
  "Total Quantity",
  "Total Value",
  "Taxable Value",
  "Integrated Tax Amount",
  "Central Tax Amount",
  "State/UT Tax Amount",
  "Cess Amount",
  "Rate",
] as const;

/** Table 6A as the offline tool's `exp` sheet ("Summary For EXP(6)") has it. */
export const EXP_HEADER = [
  "Export Type",
  "Invoice Number",
  "Invoice date",
  "Invoice Value",
  "Port Code",
  "Shipping Bill Number",
  "Shipping Bill Date",
  "Rate",
  "Taxable Value",
  "Cess Amount",
] as const;

/** Credit notes to unregistered buyers (the tool's `cdnur` sheet): here, exports' only. */
export const CDNUR_HEADER = [
  "UR Type",
  "Note Number",
  "Note Date",
  "Note Type",
  "Place Of Supply",
  "Note Value",
  "Applicable % of Tax Rate",
  "Rate",
  "Taxable Value",
  "Cess Amount",
] as const;

export const DOCS_HEADER = [
  "Nature of Document",
  "Sr. No. From",
  "Sr. No. To",
  "Total Number",
  "Cancelled",
] as const;

/** The files of the month's ZIP, by name, in the order the tool's sections come. */
export function gstr1OfflineFiles(rows: readonly InvoiceRow[]): Record<string, string> {
  const registered = rows.filter((row) => row.b2b);
  const exports = rows.filter((row) => !row.b2b && isExport(row));
  const unregistered = rows.filter((row) => !row.b2b && !isExport(row));

  const b2b: Cell[][] = [[...B2B_HEADER]];
  const cdnr: Cell[][] = [[...CDNR_HEADER]];
  for (const row of registered) {
    const { document } = row;
    if (row.kind === "invoice")
      b2b.push([
        document.buyer.gstin ?? "",
        document.buyer.legalName,
        row.number,
        istDate(row.issuedAt),
        rupees(row.totalPaise),
        placeLabel(row.placeOfSupply),
        "N",
        "",
        "Regular B2B",
        "",
        rateOf(row),
        rupees(row.taxablePaise),
        rupees(0),
      ]);
    else
      cdnr.push([
        document.buyer.gstin ?? "",
        document.buyer.legalName,
        row.number,
        istDate(row.issuedAt),
        "C",
        placeLabel(row.placeOfSupply),
        "N",
        "Regular B2B",
        rupees(row.totalPaise),
        "",
        rateOf(row),
        rupees(row.taxablePaise),
        rupees(0),
      ]);
  }
  const b2cs: Cell[][] = [[...B2CS_HEADER]];
  for (const sum of sumBy(unregistered, (row) => `${row.placeOfSupply}:${rateOf(row)}`))
    b2cs.push([
      "OE",
      placeLabel(sum.first.placeOfSupply),
      "",
      rateOf(sum.first),
      rupees(sum.taxable),
      rupees(0),
      "",
    ]);

  const exp: Cell[][] = [[...EXP_HEADER]];
  const cdnur: Cell[][] = [[...CDNUR_HEADER]];
  for (const row of exports)
    if (row.kind === "invoice")
      exp.push([
        "WOPAY",
        row.number,
        istDate(row.issuedAt),
        rupees(row.totalPaise),
        "",
        "",
        "",
        rateOf(row),
        rupees(row.taxablePaise),
        rupees(0),
      ]);
    else
      cdnur.push([
        "EXPWOP",
        row.number,
        istDate(row.issuedAt),
        "C",
        "",
        rupees(row.totalPaise),
        "",
        rateOf(row),
        rupees(row.taxablePaise),
        rupees(0),
      ]);

  const hsn = (of: readonly InvoiceRow[]) => {
    const lines: Cell[][] = [[...HSN_HEADER]];
    for (const sum of sumBy(of, (row) => `${sacOf(row)}:${rateOf(row)}`))
      lines.push([
        sacOf(sum.first),
        site.invoicing.sacDescription,
        "NA",
        0,
        rupees(sum.total),
        rupees(sum.taxable),
        rupees(sum.igst),
        rupees(sum.cgst),
        rupees(sum.sgst),
        rupees(0),
        rateOf(sum.first),
      ]);
    return lines;
  };

  const docs: Cell[][] = [[...DOCS_HEADER]];
  for (const [nature, kind] of [
    ["Invoices for outward supply", "invoice"],
    ["Credit Note", "credit_note"],
  ] as const) {
    const series = new Map<string, InvoiceRow[]>();
    for (const row of rows.filter((each) => each.kind === kind))
      series.set(row.series, [...(series.get(row.series) ?? []), row]);
    for (const issued of [...series.values()]) {
      const ordered = [...issued].sort((a, b) => a.sequence - b.sequence);
      docs.push([nature, ordered[0]!.number, ordered.at(-1)!.number, ordered.length, 0]);
    }
  }

  return {
    "b2b.csv": csvLines(b2b),
    "b2cs.csv": csvLines(b2cs),
    "cdnr.csv": csvLines(cdnr),
    "exp.csv": csvLines(exp),
    "cdnur.csv": csvLines(cdnur),
    "hsn(b2b).csv": csvLines(hsn(registered)),
    "hsn(b2c).csv": csvLines(hsn([...unregistered, ...exports])),
    "docs.csv": csvLines(docs),
  };
}

/** The SAC of a document's (single) line. */
function sacOf(row: InvoiceRow): string {
  return row.document.lines[0]?.sac ?? site.invoicing.sac;
}
