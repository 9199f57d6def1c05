/**
 * Documents summed for a GSTR-1 section (B2CS by place and rate, the HSN summary by SAC and rate):
 * credit notes subtract, amounts stay integer paise.
 */
import type { InvoiceRow } from "../db/schema";

export interface Sum {
  first: InvoiceRow;
  taxable: number;
  igst: number;
  cgst: number;
  sgst: number;
  total: number;
}

/** Documents summed by `key`, credit notes subtracted; in the order of the keys, sorted. */
export function sumBy(rows: readonly InvoiceRow[], key: (row: InvoiceRow) => string): Sum[] {
  const sums = new Map<string, Sum>();
  for (const row of rows) {
    const sum = sums.get(key(row)) ?? {
      first: row,
      taxable: 0,
      igst: 0,
      cgst: 0,
      sgst: 0,
      total: 0,
    };
    const sign = row.kind === "credit_note" ? -1 : 1;
    sum.taxable += sign * row.taxablePaise;
    sum.igst += sign * row.igstPaise;
    sum.cgst += sign * row.cgstPaise;
    sum.sgst += sign * row.sgstPaise;
    sum.total += sign * row.totalPaise;
    sums.set(key(row), sum);
  }
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, sum]) => sum);
}
