/**
 * A month's documents as one CSV for GSTR-1, in the sections the return asks for:
 * B2B (one row per invoice to a registered buyer), B2CS (unregistered buyers summed by place of
 * supply and rate, B2C credit notes netted in) and CDNR (credit notes to registered buyers).
 * Amounts are rupees with two decimals, as the GST offline tool takes them.
 */
import { stateByCode } from "~/lib/gst";
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

/**
 * A cell as the row builders hand it over: text, a plain number (a rate), or an amount in paise.
 * Numbers are written as numbers because of their type, never because a string looks like one.
 */
type Cell = string | number | { readonly paise: number };

const rupees = (paise: number): Cell => ({ paise });

/** Cells a spreadsheet would read as a formula or strip to one (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new Error(`a GSTR-1 number must be finite: ${value}`);
  return value;
}

function csvCell(cell: Cell): string {
  if (typeof cell === "number") return String(finite(cell));
  if (typeof cell === "object") return (finite(cell.paise) / 100).toFixed(2);
  // Text: a leading quote keeps any formula a string, then quote separators, quotes, line breaks.
  const safe = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function placeLabel(code: string): string {
  return `${code}-${stateByCode(code)?.name ?? "Unknown"}`;
}

const istDate = (date: Date) =>
  new Intl.DateTimeFormat("en-GB", {
    day: "2-digit",
    month: "short",
    year: "numeric",
    timeZone: "Asia/Kolkata",
  })
    .format(date)
    .replaceAll(" ", "-");

const rateOf = (row: InvoiceRow) => {
  const { tax } = row.document;
  return tax.igstRate + tax.cgstRate + tax.sgstRate;
};

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
  return `${lines.map((line) => line.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
