/**
 * GST inside a GST-inclusive price, browser-safe: the split the invoice engine prints
 * (app/.server/invoices/engine.server.ts calls `splitInclusive` after checking its inputs), and
 * the same split in words, so checkout and the renewal centre promise what the invoice shows.
 */
import { formatInr } from "./money";

/** The taxable value and the taxes inside an amount (the invoice's `TaxBreakdown`). */
export interface GstSplit {
  taxablePaise: number;
  /** Rates in percent: 9 + 9 within the supplier's state, else IGST 18. */
  cgstRate: number;
  sgstRate: number;
  igstRate: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  /** taxable + cgst + sgst + igst, exactly the amount paid (or refunded). */
  totalPaise: number;
}

/**
 * Backs GST out of a GST-inclusive amount. The taxes are rounded to the paisa from a first
 * estimate of the taxable value, and the taxable value is what remains, so taxable + taxes is
 * exactly the amount paid, CGST equals SGST, and each tax is its rate × the taxable value to
 * within a paisa. Inputs are whole paise and a rate of 0–100 (the engine checks them).
 */
export function splitInclusive(
  amountPaise: number,
  ratePercent: number,
  interState: boolean,
): GstSplit {
  const taxable0 = Math.round((amountPaise * 100) / (100 + ratePercent));
  if (interState) {
    const igst = Math.round((taxable0 * ratePercent) / 100);
    return {
      taxablePaise: amountPaise - igst,
      cgstRate: 0,
      sgstRate: 0,
      igstRate: ratePercent,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: igst,
      totalPaise: amountPaise,
    };
  }
  // One half rounded once and used twice, so the two taxes can never differ by a paisa.
  const half = Math.round((taxable0 * ratePercent) / 200);
  return {
    taxablePaise: amountPaise - 2 * half,
    cgstRate: ratePercent / 2,
    sgstRate: ratePercent / 2,
    igstRate: 0,
    cgstPaise: half,
    sgstPaise: half,
    igstPaise: 0,
    totalPaise: amountPaise,
  };
}

/**
 * Where the supply is taxed, from what a buyer typed: a registered buyer's GSTIN state (its
 * first two digits, once it has the GSTIN's shape), else the billing state; null while unknown.
 * IGST Act s.12(2), as the engine's `placeOfSupply`.
 */
export function placeOfSupplyCode(gstin: string, stateCode: string): string | null {
  const trimmed = gstin.trim().toUpperCase();
  if (/^[0-9]{2}[A-Z0-9]{13}$/.test(trimmed)) return trimmed.slice(0, 2);
  return /^[0-9]{2}$/.test(stateCode) ? stateCode : null;
}

/** "₹592.37 + ₹106.63 IGST (18%)" or "₹592.38 + ₹53.31 CGST (9%) + ₹53.31 SGST (9%)". */
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
