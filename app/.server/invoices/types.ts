/**
 * The shapes of a GST tax invoice and a credit note, as computed by the engine, stored (a full
 * copy, never edited) and rendered to PDF. Money is integer paise; dates are ISO strings.
 */
import type { GstSplit } from "~/lib/gst-split";
import type { ForeignCurrency } from "~/lib/money";

/** A supplier or buyer exactly as printed on the document. */
export interface Party {
  legalName: string;
  /** Address lines as printed, e.g. ["12 MG Road", "Bengaluru 560001"]. */
  addressLines: string[];
  /** Two-digit GST state code, e.g. "29"; null only for a buyer whose state is unknown. */
  stateCode: string | null;
  /** The state's name from the GST table, e.g. "Karnataka"; null with stateCode. */
  stateName: string | null;
  /** 15-character GSTIN, or null for an unregistered buyer (B2C). */
  gstin: string | null;
  email?: string | null;
  /** The supplier's Corporate Identity Number; absent on documents issued before it was printed. */
  cin?: string | null;
  /** A buyer outside India (issue 56): their country, printed on the export invoice. */
  country?: { code: string; name: string } | null;
  /** A buyer abroad's VAT or tax id, as given. */
  taxId?: string | null;
}

/**
 * What makes a document an export of services (issue 56, decision 0060): zero-rated under a
 * Letter of Undertaking, in the buyer's currency, with its value in rupees at the rate used.
 */
export interface ExportFacts {
  currency: ForeignCurrency;
  /** The amount in the currency's minor unit (cents): what the buyer paid, or is credited. */
  amount: number;
  /** Rupees for one unit of the currency, to four places ("84.5000"): INR value ÷ amount. */
  rate: string;
  /** Where the rupee value comes from, in words printed on the document. */
  rateSource: string;
  lut: { arn: string; financialYear: string };
  /** "US Dollars Eighty-Nine Only". */
  amountInWords: string;
}

export interface InvoiceLine {
  description: string;
  /** SAC (services accounting code), e.g. "997331". */
  sac: string;
  /** The subscription period the payment covers, as ISO dates (YYYY-MM-DD), when known. */
  periodStart: string | null;
  periodEnd: string | null;
  quantity: number;
  /** Taxable value of the line (the price without GST). */
  taxablePaise: number;
  /**
   * A coupon's discount, shown before tax (GST is due on the discounted price): the list price's
   * taxable value, less the discount, is `taxablePaise`. Absent without a discount.
   */
  discount?: LineDiscount;
}

export interface LineDiscount {
  /** "Coupon LAUNCH20". */
  label: string;
  /** The plan's price with GST, as listed. */
  listPricePaise: number;
  /** The taxable value of that price, by the invoice's own split. */
  listTaxablePaise: number;
  /** listTaxablePaise − taxablePaise. */
  discountPaise: number;
}

/** The taxable value and the taxes of an amount: one shape for invoices and the pages. */
export type TaxBreakdown = GstSplit;

/** What the engine computes from a payment, the supplier and the buyer. */
export interface TaxInvoice {
  supplier: Party;
  buyer: Party;
  placeOfSupply: { code: string; name: string };
  /** Supplier and place of supply in different states: IGST. */
  interState: boolean;
  /** The buyer gave a GSTIN. */
  b2b: boolean;
  lines: InvoiceLine[];
  tax: TaxBreakdown;
  /** "Rupees Six Hundred Ninety-Nine Only". */
  amountInWords: string;
  reverseCharge: false;
  /** Present on an export invoice or its credit note; the paise figures are its rupee value. */
  export?: ExportFacts;
}

export type DocumentKind = "invoice" | "credit_note";

/** An issued document: the computed invoice plus its identity. What the PDF shows. */
export interface InvoiceDocument extends TaxInvoice {
  kind: DocumentKind;
  /** At most 16 characters of A-Z a-z 0-9 / -, e.g. "PL/26-27/000042" or "PL/CN/26-27/0007". */
  number: string;
  /** ISO timestamp of issue. */
  issuedAt: string;
  /** Razorpay payment id the invoice is for (the refunded payment for a credit note). */
  paymentId: string | null;
  /** For a credit note: the invoice it corrects. */
  original: { number: string; issuedAt: string } | null;
  /** A credit note's reason, e.g. "Refund" or "GSTIN corrected". */
  reason: string | null;
}
