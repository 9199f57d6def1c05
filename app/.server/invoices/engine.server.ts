/**
 * The GST tax engine: pure functions from an amount paid, a supplier and a buyer to the tax
 * invoice's figures. No database, no clock: everything it needs is passed in.
 */
import { stateByCode, validateGstin } from "~/lib/gst";
import type { InvoiceLine, Party, TaxBreakdown, TaxInvoice } from "./types";

/** Rule 46: at most 16 characters of letters, digits, "/" and "-". */
export const INVOICE_NUMBER = /^[A-Za-z0-9/-]{1,16}$/;

/**
 * Backs GST out of a GST-inclusive amount. CGST and SGST are equal; the taxable value takes the
 * rounding, so taxable + taxes is exactly the amount paid and each tax is the rate × taxable
 * value to within a paisa.
 */
export function splitGstInclusive(
  amountPaise: number,
  ratePercent: number,
  interState: boolean,
): TaxBreakdown {
  if (!Number.isInteger(amountPaise) || amountPaise < 0)
    throw new Error(`amount must be whole paise: ${amountPaise}`);
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
 * IGST Act s.12(2): a registered buyer's location (the GSTIN's state), else the address on
 * record, else the supplier's location.
 */
export function placeOfSupply(buyer: Party, supplier: Party): { code: string; name: string } {
  const code = buyer.gstin?.slice(0, 2) ?? buyer.stateCode ?? supplier.stateCode;
  if (!code) throw new Error("the supplier has no state code");
  return { code, name: stateByCode(code)?.name ?? code };
}

export function computeTaxInvoice(input: {
  amountPaise: number;
  ratePercent: number;
  supplier: Party;
  buyer: Party;
  line: Omit<InvoiceLine, "taxablePaise" | "quantity">;
}): TaxInvoice {
  if (input.buyer.gstin !== null) {
    const checked = validateGstin(input.buyer.gstin);
    if (!checked.ok) throw new Error(`buyer GSTIN ${input.buyer.gstin}: ${checked.error}`);
  }
  const place = placeOfSupply(input.buyer, input.supplier);
  const interState = place.code !== input.supplier.stateCode;
  const tax = splitGstInclusive(input.amountPaise, input.ratePercent, interState);
  return {
    supplier: input.supplier,
    buyer: input.buyer,
    placeOfSupply: place,
    interState,
    b2b: input.buyer.gstin !== null,
    lines: [{ ...input.line, quantity: 1, taxablePaise: tax.taxablePaise }],
    tax,
    amountInWords: amountInWords(tax.totalPaise),
    reverseCharge: false,
  };
}

/** The same invoice for a refunded amount, tax reversed in proportion (a full refund exactly). */
export function creditNoteFor(invoice: TaxInvoice, refundPaise: number): TaxInvoice {
  if (!Number.isInteger(refundPaise) || refundPaise < 1 || refundPaise > invoice.tax.totalPaise)
    throw new Error(`refund must be 1..${invoice.tax.totalPaise} paise: ${refundPaise}`);
  const rate = invoice.tax.igstRate + invoice.tax.cgstRate + invoice.tax.sgstRate;
  const tax = splitGstInclusive(refundPaise, rate, invoice.interState);
  return {
    ...invoice,
    lines: invoice.lines.map((line) => ({ ...line, taxablePaise: tax.taxablePaise })),
    tax,
    amountInWords: amountInWords(refundPaise),
  };
}

const ONES = [
  "Zero",
  "One",
  "Two",
  "Three",
  "Four",
  "Five",
  "Six",
  "Seven",
  "Eight",
  "Nine",
  "Ten",
  "Eleven",
  "Twelve",
  "Thirteen",
  "Fourteen",
  "Fifteen",
  "Sixteen",
  "Seventeen",
  "Eighteen",
  "Nineteen",
];
const TENS = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n] ?? "";
  const tens = TENS[Math.floor(n / 10)] ?? "";
  return n % 10 === 0 ? tens : `${tens}-${ONES[n % 10]}`;
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts = hundreds > 0 ? [`${ONES[hundreds]} Hundred`] : [];
  if (rest > 0) parts.push(belowHundred(rest));
  return parts.join(" ");
}

/** Indian numbering: crore (10^7), lakh (10^5), thousand, hundred. */
function wholeInWords(n: number): string {
  if (n === 0) return "Zero";
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  const thousand = Math.floor((n % 100_000) / 1000);
  const rest = n % 1000;
  const parts: string[] = [];
  if (crore > 0) parts.push(`${wholeInWords(crore)} Crore`);
  if (lakh > 0) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand > 0) parts.push(`${belowHundred(thousand)} Thousand`);
  if (rest > 0) parts.push(belowThousand(rest));
  return parts.join(" ");
}

/** "Rupees Six Hundred Ninety-Nine Only"; paise as "and Fifty Paise". */
export function amountInWords(paise: number): string {
  if (!Number.isInteger(paise) || paise < 0)
    throw new Error(`amount must be whole paise: ${paise}`);
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  return `Rupees ${wholeInWords(rupees)}${rest > 0 ? ` and ${belowHundred(rest)} Paise` : ""} Only`;
}

const IST_OFFSET_MS = 330 * 60_000;

/** India's financial year (April–March) of a moment, in India time. */
export function financialYear(date: Date): { start: number; label: string; short: string } {
  const ist = new Date(date.getTime() + IST_OFFSET_MS);
  const start = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  const two = (year: number) => String(year % 100).padStart(2, "0");
  return { start, label: `${start}-${two(start + 1)}`, short: `${two(start)}-${two(start + 1)}` };
}

export function formatDocumentNumber(input: {
  prefix: string;
  kind: "invoice" | "credit_note";
  fyShort: string;
  sequence: number;
}): string {
  if (!Number.isInteger(input.sequence) || input.sequence < 1)
    throw new Error(`bad sequence ${input.sequence}`);
  const number =
    input.kind === "invoice"
      ? `${input.prefix}/${input.fyShort}/${String(input.sequence).padStart(6, "0")}`
      : `${input.prefix}/CN/${input.fyShort}/${String(input.sequence).padStart(4, "0")}`;
  if (!INVOICE_NUMBER.test(number))
    throw new Error(`document number ${number} breaks the 16-character rule`);
  return number;
}
