/**
 * The GST tax engine: pure functions from an amount paid, a supplier and a buyer to the tax
 * invoice's figures, the amount in words, the financial year and the document number.
 * No database, no clock, no I/O: everything it needs is passed in, so the same inputs always
 * give the same document.
 */
import { FOREIGN_COUNTRY, stateByCode, validateGstin } from "~/lib/gst";
import { splitInclusive } from "~/lib/gst-split";
import { IST_OFFSET_MS } from "~/lib/india-time";
import { currencyName, type ForeignCurrency } from "~/lib/money";
import type { ExportFacts, InvoiceLine, Party, TaxBreakdown, TaxInvoice } from "./types";

/** Rule 46: an invoice number has at most 16 characters of letters, digits, "/" and "-". */
export const INVOICE_NUMBER = /^[A-Za-z0-9/-]{1,16}$/;

// ---------------------------------------------------------------------------------------------
// Tax

function assertPaise(paise: number, what: string): void {
  // Safe integers only: beyond 2^53 paise the arithmetic below would silently lose paise.
  if (!Number.isSafeInteger(paise) || paise < 0)
    throw new Error(`${what} must be a whole, non-negative number of paise: ${paise}`);
}

function assertRate(ratePercent: number): void {
  if (!Number.isFinite(ratePercent) || ratePercent < 0 || ratePercent > 100)
    throw new Error(`GST rate must be 0..100 percent: ${ratePercent}`);
}

/**
 * Backs GST out of a GST-inclusive amount: the one rule, in ~/lib/gst-split so the checkout and
 * renewal pages show the very figures the invoice will print.
 */
export function splitGstInclusive(
  amountPaise: number,
  ratePercent: number,
  interState: boolean,
): TaxBreakdown {
  assertPaise(amountPaise, "amount");
  assertRate(ratePercent);
  return splitInclusive(amountPaise, ratePercent, interState);
}

/** A state code and its name from the GST table; a code outside the table cannot be printed. */
function gstState(code: string, whose: string): { code: string; name: string } {
  const state = stateByCode(code);
  if (!state) throw new Error(`${whose} state code ${code} is not a GST state code`);
  return { code: state.code, name: state.name };
}

/** The state of a GSTIN: its first two characters (of the trimmed, upper-cased form). */
function gstinStateCode(gstin: string): string {
  return gstin.trim().slice(0, 2);
}

/**
 * IGST Act s.12(2): a registered buyer's location (the GSTIN's state, even when the billing
 * address says otherwise), else the address on record, else the supplier's location.
 */
export function placeOfSupply(buyer: Party, supplier: Party): { code: string; name: string } {
  if (buyer.gstin !== null) return gstState(gstinStateCode(buyer.gstin), "the buyer's GSTIN");
  if (buyer.stateCode !== null) return gstState(buyer.stateCode, "the buyer's");
  if (supplier.stateCode === null) throw new Error("the supplier has no state code");
  return gstState(supplier.stateCode, "the supplier's");
}

/** The buyer as printed: a GSTIN checked and written in its canonical (trimmed, upper) form. */
function checkedBuyer(buyer: Party): Party {
  if (buyer.gstin === null) return buyer;
  const checked = validateGstin(buyer.gstin);
  if (!checked.ok) throw new Error(`buyer GSTIN ${buyer.gstin}: ${checked.error}`);
  return checked.gstin === buyer.gstin ? buyer : { ...buyer, gstin: checked.gstin };
}

/**
 * A tax invoice for one GST-inclusive payment: one line, of `quantity` (a team's seats; else 1)
 * for the whole amount. With `list` (a coupon's
 * price), the line shows the listed price's taxable value and the discount before tax, both by
 * the same split rule, so list − discount is exactly the taxable value of what was paid.
 */
export function computeTaxInvoice(input: {
  amountPaise: number;
  ratePercent: number;
  supplier: Party;
  buyer: Party;
  line: Omit<InvoiceLine, "taxablePaise" | "quantity" | "discount">;
  list?: { pricePaise: number; label: string } | null;
  quantity?: number;
}): TaxInvoice {
  const { supplier } = input;
  if (supplier.stateCode === null) throw new Error("the supplier has no state code");
  gstState(supplier.stateCode, "the supplier's");
  const buyer = checkedBuyer(input.buyer);
  const place = placeOfSupply(buyer, supplier);
  const interState = place.code !== supplier.stateCode;
  const tax = splitGstInclusive(input.amountPaise, input.ratePercent, interState);
  const list = input.list && input.list.pricePaise > input.amountPaise ? input.list : null;
  const listTaxable = list
    ? splitGstInclusive(list.pricePaise, input.ratePercent, interState).taxablePaise
    : null;
  return {
    supplier,
    buyer,
    placeOfSupply: place,
    interState,
    b2b: buyer.gstin !== null,
    lines: [
      {
        ...input.line,
        quantity: input.quantity ?? 1,
        taxablePaise: tax.taxablePaise,
        ...(list && listTaxable !== null
          ? {
              discount: {
                label: list.label,
                listPricePaise: list.pricePaise,
                listTaxablePaise: listTaxable,
                discountPaise: listTaxable - tax.taxablePaise,
              },
            }
          : {}),
      },
    ],
    tax,
    amountInWords: amountInWords(tax.totalPaise),
    reverseCharge: false,
  };
}

/**
 * A credit note for a refund of part or all of an invoice: the same parties, place of supply and
 * line, with the tax reversed by the same split rule, so a full refund reverses exactly the
 * invoice's figures. Whether several refunds together exceed the invoice is the caller's check.
 */
export function creditNoteFor(invoice: TaxInvoice, refundPaise: number): TaxInvoice {
  if (invoice.export) return exportCreditNoteFor(invoice, invoice.export, refundPaise);
  if (!Number.isSafeInteger(refundPaise) || refundPaise < 1 || refundPaise > invoice.tax.totalPaise)
    throw new Error(`refund must be 1..${invoice.tax.totalPaise} paise: ${refundPaise}`);
  // The engine writes one line per invoice; with more, a refund could not be apportioned.
  const [line, ...others] = invoice.lines;
  if (!line || others.length > 0)
    throw new Error(`a credit note needs an invoice of one line, not ${invoice.lines.length}`);
  const rate = invoice.tax.igstRate + invoice.tax.cgstRate + invoice.tax.sgstRate;
  const tax = splitGstInclusive(refundPaise, rate, invoice.interState);
  // A credit note gives back what was paid: the discount is already out of the invoice's value.
  const { discount: _discount, ...paidLine } = line;
  return {
    ...invoice,
    lines: [{ ...paidLine, quantity: 1, taxablePaise: tax.taxablePaise }],
    tax,
    amountInWords: amountInWords(refundPaise),
  };
}

// ---------------------------------------------------------------------------------------------
// Exports of services (issue 56, decision 0060)

/** The place of supply of every export: the GST system's "Foreign Country". */
export const EXPORT_PLACE = FOREIGN_COUNTRY;

/** The endorsement Rule 46 asks of an export under a Letter of Undertaking. */
export const LUT_ENDORSEMENT =
  "Supply meant for export under Letter of Undertaking without payment of integrated tax";

/** `a × b ÷ c`, rounded half up, exactly (BigInt: the product can pass 2^53). */
function mulDiv(a: number, b: number, c: number): number {
  const [x, y, z] = [BigInt(a), BigInt(b), BigInt(c)];
  return Number((2n * x * y + z) / (2n * z));
}

/**
 * Rupees per unit of a currency to four places, from an amount and its rupee value (both in
 * minor units of 1/100): 8900 cents worth 752050 paise → "84.5000".
 */
export function rateOf(amount: number, inrPaise: number): string {
  assertPaise(inrPaise, "rupee value");
  if (!Number.isSafeInteger(amount) || amount < 1)
    throw new Error(`an export's amount must be a whole, positive number of cents: ${amount}`);
  return rateText(mulDiv(inrPaise, 10_000, amount));
}

/** A rate in ten-thousandths of a rupee as printed: 845025 → "84.5025". */
export function rateText(rateE4: number): string {
  // Zero only for a value too small to show in four places (a few paise for many dollars).
  if (!Number.isSafeInteger(rateE4) || rateE4 < 0)
    throw new Error(`a rate is a whole, non-negative number of ten-thousandths: ${rateE4}`);
  return `${Math.floor(rateE4 / 10_000)}.${String(rateE4 % 10_000).padStart(4, "0")}`;
}

/** "84.5025" (up to four places, no float) → 845025; null for anything else. */
export function parseRate(text: string): number | null {
  const match = /^(\d{1,6})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) return null;
  const rateE4 = Number(match[1]) * 10_000 + Number((match[2] ?? "").padEnd(4, "0"));
  return rateE4 > 0 ? rateE4 : null;
}

/**
 * An amount abroad in rupees at a reference rate (Rule 34(2)): cents × rupees per unit gives
 * paise, rounded half up, exactly.
 */
export function inrAtRate(amount: number, rateE4: number): number {
  return mulDiv(amount, rateE4, 10_000);
}

/** Zero-rated: the whole rupee value is taxable, no tax on it (IGST at 0% under the LUT). */
function zeroRated(inrPaise: number): TaxBreakdown {
  return {
    taxablePaise: inrPaise,
    cgstRate: 0,
    sgstRate: 0,
    igstRate: 0,
    cgstPaise: 0,
    sgstPaise: 0,
    igstPaise: 0,
    totalPaise: inrPaise,
  };
}

/**
 * An export invoice for one payment in a foreign currency: its amount as paid, its value in
 * rupees (Razorpay's conversion of that payment, Rule 34(2)) and the rate that makes, no Indian
 * tax, the LUT's endorsement. The paise figures, as on every document, are in rupees.
 */
export function computeExportInvoice(input: {
  amount: number;
  currency: ForeignCurrency;
  inrPaise: number;
  rateSource: string;
  /** A reference rate used (in ten-thousandths), printed as entered; else value ÷ amount. */
  rateE4?: number;
  lut: { arn: string; financialYear: string };
  supplier: Party;
  buyer: Party;
  line: Omit<InvoiceLine, "taxablePaise" | "quantity" | "discount">;
  quantity?: number;
}): TaxInvoice {
  if (input.supplier.stateCode === null) throw new Error("the supplier has no state code");
  if (input.buyer.gstin !== null) throw new Error("a buyer abroad has no GSTIN");
  const facts: ExportFacts = {
    currency: input.currency,
    amount: input.amount,
    rate:
      input.rateE4 === undefined ? rateOf(input.amount, input.inrPaise) : rateText(input.rateE4),
    rateSource: input.rateSource,
    lut: input.lut,
    amountInWords: foreignAmountInWords(input.amount, input.currency),
  };
  return {
    supplier: input.supplier,
    buyer: input.buyer,
    placeOfSupply: { ...EXPORT_PLACE },
    // An export is an inter-State supply (IGST Act s. 7(5)(a)): IGST, at zero under the LUT.
    interState: true,
    b2b: false,
    lines: [{ ...input.line, quantity: input.quantity ?? 1, taxablePaise: input.inrPaise }],
    tax: zeroRated(input.inrPaise),
    amountInWords: amountInWords(input.inrPaise),
    reverseCharge: false,
    export: facts,
  };
}

/**
 * A credit note for a refund of an export, in its currency (Razorpay refunds in the payment's):
 * its rupee value at the invoice's own rate, so a full refund reverses the invoice exactly.
 */
function exportCreditNoteFor(invoice: TaxInvoice, facts: ExportFacts, refund: number): TaxInvoice {
  if (!Number.isSafeInteger(refund) || refund < 1 || refund > facts.amount)
    throw new Error(`refund must be 1..${facts.amount} ${facts.currency} cents: ${refund}`);
  const [line, ...others] = invoice.lines;
  if (!line || others.length > 0)
    throw new Error(`a credit note needs an invoice of one line, not ${invoice.lines.length}`);
  const inrPaise =
    refund === facts.amount
      ? invoice.tax.totalPaise
      : mulDiv(refund, invoice.tax.totalPaise, facts.amount);
  return {
    ...invoice,
    lines: [{ ...line, quantity: 1, taxablePaise: inrPaise }],
    tax: zeroRated(inrPaise),
    amountInWords: amountInWords(inrPaise),
    export: {
      ...facts,
      amount: refund,
      amountInWords: foreignAmountInWords(refund, facts.currency),
    },
  };
}

/** International numbering for a buyer abroad: billion, million, thousand. */
function internationalWords(n: number): string {
  if (n === 0) return "Zero";
  const parts: string[] = [];
  const scales: [number, string][] = [
    [1_000_000_000, "Billion"],
    [1_000_000, "Million"],
    [1000, "Thousand"],
  ];
  let rest = n;
  for (const [size, name] of scales) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${internationalWords(count)} ${name}`);
    rest %= size;
  }
  if (rest > 0) parts.push(belowThousand(rest));
  return parts.join(" ");
}

const MAJOR_WORDS: Record<ForeignCurrency, string> = { USD: "US Dollars", EUR: "Euros" };

/** "US Dollars Eighty-Nine and Fifty Cents Only", "Euros Eighty-Five Only". */
export function foreignAmountInWords(amount: number, currency: ForeignCurrency): string {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new Error(`an amount in ${currencyName(currency)} must be whole cents: ${amount}`);
  const whole = Math.floor(amount / 100);
  const cents = amount % 100;
  const centWords =
    cents > 0 ? ` and ${belowHundred(cents)} ${cents === 1 ? "Cent" : "Cents"}` : "";
  return `${MAJOR_WORDS[currency]} ${internationalWords(whole)}${centWords} Only`;
}

// ---------------------------------------------------------------------------------------------
// Amount in words

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
] as const;
const TENS = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];

/** 1..99: "Seven", "Forty", "Ninety-Nine". */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n] ?? "";
  const tens = TENS[Math.floor(n / 10)] ?? "";
  const ones = n % 10;
  return ones === 0 ? tens : `${tens}-${ONES[ones]}`;
}

/** 1..999: "Six Hundred Ninety-Nine" (no "and", as Indian invoices write it). */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts = hundreds > 0 ? [`${ONES[hundreds]} Hundred`] : [];
  if (rest > 0) parts.push(belowHundred(rest));
  return parts.join(" ");
}

/**
 * Indian numbering: crore (10^7), lakh (10^5), thousand, hundred. Crores above 99 are written
 * in the same system ("One Hundred Crore", "One Lakh Crore").
 */
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

/** "Rupees Six Hundred Ninety-Nine Only"; paise as "Rupees Zero and Five Paise Only". */
export function amountInWords(paise: number): string {
  assertPaise(paise, "amount");
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  const paiseWords = rest > 0 ? ` and ${belowHundred(rest)} Paise` : "";
  return `Rupees ${wholeInWords(rupees)}${paiseWords} Only`;
}

// ---------------------------------------------------------------------------------------------
// Financial year and document numbers

/** India Standard Time is UTC+05:30 all year (no daylight saving). */
/** April, as Date's zero-based month. */
const APRIL = 3;

const twoDigits = (year: number) => String(year % 100).padStart(2, "0");

/** India's financial year (April–March) of a moment, taken in India time. */
export function financialYear(date: Date): { start: number; label: string; short: string } {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new Error("financialYear of an invalid date");
  // Shift to IST and read the UTC fields: the wall-clock date in India, whatever the server's zone.
  const ist = new Date(time + IST_OFFSET_MS);
  const year = ist.getUTCFullYear();
  const start = ist.getUTCMonth() >= APRIL ? year : year - 1;
  return {
    start,
    label: `${start}-${twoDigits(start + 1)}`,
    short: `${twoDigits(start)}-${twoDigits(start + 1)}`,
  };
}

/**
 * "PL/26-27/000042" for an invoice, "PL/CN/26-27/0007" for a credit note. A sequence longer than
 * the padding is written in full while the number still fits GST's 16 characters.
 */
export function formatDocumentNumber(input: {
  prefix: string;
  kind: "invoice" | "credit_note";
  fyShort: string;
  sequence: number;
}): string {
  const { prefix, kind, fyShort, sequence } = input;
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new Error(`a document sequence is a whole number from 1: ${sequence}`);
  const number =
    kind === "invoice"
      ? `${prefix}/${fyShort}/${String(sequence).padStart(6, "0")}`
      : `${prefix}/CN/${fyShort}/${String(sequence).padStart(4, "0")}`;
  if (!/^[A-Za-z0-9/-]*$/.test(number))
    throw new Error(`document number ${number} may use only A-Z a-z 0-9 / - (GST rule 46)`);
  if (!INVOICE_NUMBER.test(number))
    throw new Error(`document number ${number} is longer than 16 characters (GST rule 46)`);
  return number;
}
