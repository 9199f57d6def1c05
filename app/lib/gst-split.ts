/**
 * A GST-inclusive amount in words, as its invoice will split it: "₹592.37 + ₹106.63 IGST (18%)"
 * or "₹592.37 + ₹53.32 CGST (9%) + ₹53.32 SGST (9%)". Browser-safe; the split itself is the
 * invoice engine's (`splitGstInclusive`), so what a page promises is what the invoice prints.
 */
import { formatInr } from "./money";

export interface GstSplit {
  taxablePaise: number;
  cgstRate: number;
  sgstRate: number;
  igstRate: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
}

export function gstSplitText(split: GstSplit): string {
  const taxes =
    split.igstPaise > 0 || split.igstRate > 0
      ? [`${formatInr(split.igstPaise)} IGST (${split.igstRate}%)`]
      : [
          `${formatInr(split.cgstPaise)} CGST (${split.cgstRate}%)`,
          `${formatInr(split.sgstPaise)} SGST (${split.sgstRate}%)`,
        ];
  return [formatInr(split.taxablePaise), ...taxes].join(" + ");
}
