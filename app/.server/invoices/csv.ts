/**
 * CSV for the accountant's GST files (GSTR-1): cells written safely (no formula survives, numbers
 * are numbers because of their type), rupees with two decimals, dates and places as the GST
 * offline tool takes them.
 */
import { FOREIGN_COUNTRY, stateByCode } from "~/lib/gst";
import type { InvoiceRow } from "../db/schema";

/**
 * A cell as the row builders hand it over: text, a plain number (a rate), or an amount in paise.
 * Numbers are written as numbers because of their type, never because a string looks like one.
 */
export type Cell = string | number | { readonly paise: number };

export const rupees = (paise: number): Cell => ({ paise });

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

export function placeLabel(code: string): string {
  const name =
    stateByCode(code)?.name ?? (code === FOREIGN_COUNTRY.code ? FOREIGN_COUNTRY.name : "Unknown");
  return `${code}-${name}`;
}

export const istDate = (date: Date) =>
  new Intl.DateTimeFormat("en-GB", {
    day: "2-digit",
    month: "short",
    year: "numeric",
    timeZone: "Asia/Kolkata",
  })
    .format(date)
    .replaceAll(" ", "-");

/** An export of services (issue 56): Table 6A, never a domestic section. */
export const isExport = (row: Pick<InvoiceRow, "currency">) => row.currency !== "INR";

export const rateOf = (row: InvoiceRow) => {
  const { tax } = row.document;
  return tax.igstRate + tax.cgstRate + tax.sgstRate;
};

/** Rows as CSV text: CRLF line ends, as the offline tool and spreadsheets expect. */
export function csvLines(lines: readonly (readonly Cell[])[]): string {
  return `${lines.map((line) => line.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
