/**
 * Renders an issued tax invoice or credit note (Rule 46 contents) to a one-page A4 PDF.
 * Everything is real text in an embedded DejaVu font, so the ₹ sign prints and the document
 * stays searchable and selectable; nothing is fetched over the network.
 */
import { formatDate } from "~/lib/dates";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Font, FontCollection } from "fontkit";
import type PDFDocumentClass from "pdfkit";
import { site } from "~/config/site";
import { type Currency, decimalOf } from "~/lib/money";
import { LUT_ENDORSEMENT } from "./engine.server";
import type { ExportFacts, InvoiceDocument, InvoiceLine, Party } from "./types";

// Resolved through Node's module lookup rather than a path relative to this file, so the same
// code finds the fonts from the source tree, under Vitest and from the bundle in build/server/.
const requireFromHere = createRequire(import.meta.url);
export const FONT_FILES = {
  regular: requireFromHere.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  bold: requireFromHere.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
} as const;

type Pdf = PDFKit.PDFDocument;

const MARGIN = 40;
const PAGE_WIDTH = 595.28; // A4 in points
const RIGHT = PAGE_WIDTH - MARGIN;
const INK = "#111111"; // near-black on white: the document gets printed
const RULE = "#888888";

// Fixed x positions keep the table and the totals aligned whatever the text lengths are.
const COL = {
  index: { x: MARGIN, width: 20 },
  description: { x: MARGIN + 24, width: 252 },
  sac: { x: 324, width: 56 },
  qty: { x: 384, width: 40 },
  amount: { x: 430, width: RIGHT - 430 },
} as const;
const TOTAL_LABEL_X = 300;
// The details column is wide enough for "Against invoice: <16 chars> dated 23 Sept 2026".
const DETAILS_X = 295;

const rupees = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Paise as rupees with Indian grouping and always two decimals: 123456750 → "₹12,34,567.50". */
export function formatRupees(paise: number): string {
  return rupees.format(paise / 100);
}

const foreignFormats = new Map<Currency, Intl.NumberFormat>();
/** An export's amount with two decimals, as its currency writes it: 8900 USD → "$89.00". */
export function formatForeign(amount: number, currency: Currency): string {
  let format = foreignFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    foreignFormats.set(currency, format);
  }
  // A decimal string, read exactly by Intl: no float between the cents and the page.
  return format.format(decimalOf(amount, currency) as `${number}`);
}

/** The document's title: an export says so (issue 56). */
function titleOf(doc: InvoiceDocument, isCredit: boolean): string {
  if (doc.export) return isCredit ? "Credit Note (Export)" : "Export Invoice";
  return isCredit ? "Credit Note" : "Tax Invoice";
}

/** An issue timestamp is an instant: the calendar date in India, where it is issued. */
const formatIssued = (iso: string) => formatDate(iso);

/** A period bound is a plain date (YYYY-MM-DD): printed as that day, never shifted. */
const formatPlain = (isoDate: string) => formatDate(isoDate.slice(0, 10));

function stateLine(party: Party): string | null {
  return party.stateName && party.stateCode
    ? `State: ${party.stateName} (${party.stateCode})`
    : null;
}

interface TextOptions {
  bold?: boolean;
  size?: number;
  width?: number;
  align?: "left" | "right";
}

/** Writes text at (x, y), wrapped within its width, and returns the y just below it. */
function put(pdf: Pdf, text: string, x: number, y: number, options: TextOptions = {}): number {
  pdf
    .font(options.bold ? "bold" : "regular")
    .fontSize(options.size ?? 9)
    .fillColor(INK)
    .text(text, x, y, { width: options.width ?? RIGHT - x, align: options.align ?? "left" });
  return pdf.y;
}

/** Writes lines one under another, skipping nulls, the first one bold; returns the y below. */
function block(pdf: Pdf, lines: (string | null)[], x: number, y: number, width: number): number {
  return lines.reduce<number>(
    (next, line, i) => (line === null ? next : put(pdf, line, x, next, { width, bold: i === 0 })),
    y,
  );
}

function rule(pdf: Pdf, y: number, fromX = MARGIN): void {
  pdf.moveTo(fromX, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor(RULE).stroke();
}

function header(pdf: Pdf, doc: InvoiceDocument, isCredit: boolean): number {
  let y = put(pdf, titleOf(doc, isCredit), MARGIN, MARGIN, { bold: true, size: 18 });
  y = put(pdf, "Original for recipient", MARGIN, y, { size: 8 }) + 10;
  if (doc.export) {
    // Rule 46's export endorsement, with the Letter of Undertaking it rests on.
    y = put(pdf, `${LUT_ENDORSEMENT.toUpperCase()}.`, MARGIN, y, { bold: true });
    const { lut } = doc.export;
    y = put(pdf, `LUT ARN: ${lut.arn} (financial year ${lut.financialYear})`, MARGIN, y) + 10;
  }
  const { supplier, original } = doc;
  const supplierLines: (string | null)[] = [supplier.legalName, ...supplier.addressLines];
  supplierLines.push(`GSTIN: ${supplier.gstin ?? ""}`);
  // Printed as issued: a document from before the CIN was configured has none.
  if (supplier.cin) supplierLines.push(`CIN: ${supplier.cin}`);
  supplierLines.push(stateLine(supplier));
  const details = [
    `${isCredit ? "Credit Note No." : "Invoice No."}: ${doc.number}`,
    `Date: ${formatIssued(doc.issuedAt)}`,
    doc.paymentId ? `Payment ID: ${doc.paymentId}` : null,
  ];
  if (isCredit && original) {
    details.push(`Against invoice: ${original.number} dated ${formatIssued(original.issuedAt)}`);
  }
  if (isCredit && doc.reason) details.push(`Reason: ${doc.reason}`);
  const supplierEnd = block(pdf, supplierLines, MARGIN, y, DETAILS_X - MARGIN - 10);
  const detailsEnd = block(pdf, details, DETAILS_X, y, RIGHT - DETAILS_X);
  return Math.max(supplierEnd, detailsEnd) + 12;
}

function billTo(pdf: Pdf, doc: InvoiceDocument, top: number): number {
  const { buyer, placeOfSupply } = doc;
  const lines = [buyer.legalName, ...buyer.addressLines, stateLine(buyer)];
  if (doc.export) {
    // A buyer abroad: their country and any VAT id; no Indian state, no GSTIN.
    if (buyer.country) lines.push(`Country: ${buyer.country.name}`);
    if (buyer.taxId) lines.push(`VAT / tax id: ${buyer.taxId}`);
  } else lines.push(`GSTIN: ${buyer.gstin ?? "Unregistered"}`);
  let y = put(pdf, "Bill to", MARGIN, top, { size: 8 });
  y = block(pdf, lines, MARGIN, y, DETAILS_X - MARGIN - 10) + 8;
  y = put(
    pdf,
    doc.export
      ? `Place of supply: outside India${buyer.country ? ` (${buyer.country.name})` : ""}`
      : `Place of supply: ${placeOfSupply.name} (${placeOfSupply.code})`,
    MARGIN,
    y,
  );
  return put(pdf, `Reverse charge: ${doc.reverseCharge ? "Yes" : "No"}`, MARGIN, y) + 14;
}

/** One table row at y; returns the y below its tallest cell. */
function tableRow(pdf: Pdf, cells: [string, string, string, string], y: number, bold = false) {
  const [description, sac, qty, amount] = cells;
  return Math.max(
    put(pdf, description, COL.description.x, y, { ...COL.description, bold }),
    put(pdf, sac, COL.sac.x, y, { ...COL.sac, bold }),
    put(pdf, qty, COL.qty.x, y, { ...COL.qty, bold, align: "right" }),
    put(pdf, amount, COL.amount.x, y, { ...COL.amount, bold, align: "right" }),
  );
}

function lineItems(
  pdf: Pdf,
  lines: InvoiceLine[],
  top: number,
  exported: ExportFacts | undefined,
): number {
  rule(pdf, top);
  put(pdf, "#", COL.index.x, top + 5, { ...COL.index, bold: true });
  const heading = exported ? `Amount (${exported.currency})` : "Taxable value";
  let y = tableRow(pdf, ["Description", "SAC", "Qty", heading], top + 5, true);
  rule(pdf, y + 3);
  y += 8;
  lines.forEach((line, i) => {
    put(pdf, String(i + 1), COL.index.x, y, COL.index);
    // A coupon's discount comes off before tax: the listed value, then the discount under it.
    const amount = exported
      ? formatForeign(exported.amount, exported.currency)
      : formatRupees(line.discount?.listTaxablePaise ?? line.taxablePaise);
    y = tableRow(pdf, [line.description, line.sac, String(line.quantity), amount], y);
    if (line.periodStart && line.periodEnd) {
      const period = `Period: ${formatPlain(line.periodStart)} – ${formatPlain(line.periodEnd)}`;
      y = put(pdf, period, COL.description.x, y + 2, { ...COL.description, size: 8 });
    }
    if (line.discount) {
      const less = `Less discount (${line.discount.label})`;
      y = tableRow(pdf, [less, "", "", `-${formatRupees(line.discount.discountPaise)}`], y + 4);
    }
    y += 6;
  });
  rule(pdf, y);
  return y + 6;
}

/**
 * An export's totals: what was paid in its currency, the rate, its rupee value (the taxable value
 * GST returns report) and IGST at zero under the LUT; the amount in words in its currency.
 */
function exportTotals(pdf: Pdf, doc: InvoiceDocument, facts: ExportFacts, top: number): number {
  let y = top;
  const row = (label: string, amount: string, bold = false) => {
    put(pdf, label, TOTAL_LABEL_X - 60, y, { width: COL.amount.x - TOTAL_LABEL_X + 60, bold });
    y = put(pdf, amount, COL.amount.x, y, { ...COL.amount, bold, align: "right" }) + 2;
  };
  row(`Total (${facts.currency})`, formatForeign(facts.amount, facts.currency), true);
  row("Exchange rate", `₹${facts.rate} per ${facts.currency}`);
  row("Taxable value (INR)", formatRupees(doc.tax.taxablePaise));
  row("IGST @ 0% (export under LUT)", formatRupees(0));
  rule(pdf, y, TOTAL_LABEL_X - 60);
  y += 4;
  row("Value in INR", formatRupees(doc.tax.totalPaise), true);
  y = put(pdf, `Amount in words: ${facts.amountInWords}`, MARGIN, y + 10);
  return put(pdf, `Rate used: ${facts.rateSource}.`, MARGIN, y + 2) + 24;
}

function totals(pdf: Pdf, doc: InvoiceDocument, top: number): number {
  if (doc.export) return exportTotals(pdf, doc, doc.export, top);
  const { tax } = doc;
  const rows: [string, number][] = [["Taxable value", tax.taxablePaise]];
  // Only the taxes that apply: CGST + SGST within the supplier's state, else IGST.
  if (tax.cgstRate > 0) rows.push([`CGST @ ${tax.cgstRate}%`, tax.cgstPaise]);
  if (tax.sgstRate > 0) rows.push([`SGST @ ${tax.sgstRate}%`, tax.sgstPaise]);
  if (tax.igstRate > 0) rows.push([`IGST @ ${tax.igstRate}%`, tax.igstPaise]);
  let y = top;
  const row = (label: string, paise: number, bold = false) => {
    put(pdf, label, TOTAL_LABEL_X, y, { width: COL.amount.x - TOTAL_LABEL_X, bold });
    const amount = formatRupees(paise);
    y = put(pdf, amount, COL.amount.x, y, { ...COL.amount, bold, align: "right" }) + 2;
  };
  rows.forEach(([label, paise]) => row(label, paise));
  rule(pdf, y, TOTAL_LABEL_X);
  y += 4;
  row("Total", tax.totalPaise, true);
  return put(pdf, `Amount in words: ${doc.amountInWords}`, MARGIN, y + 10) + 24;
}

function footer(pdf: Pdf, doc: InvoiceDocument, isCredit: boolean, top: number): void {
  rule(pdf, top);
  const what = isCredit ? "credit note" : "invoice";
  const notice = `This is a computer-generated ${what} and needs no signature.`;
  const y = put(pdf, notice, MARGIN, top + 6, { size: 8 });
  // Documents are stored copies; one without the supplier email falls back to today's address.
  put(pdf, `Support: ${doc.supplier.email ?? site.company.supportEmail}`, MARGIN, y, { size: 8 });
}

interface Renderer {
  PDFDocument: typeof PDFDocumentClass;
  regular: Font;
  bold: Font;
}

/**
 * pdfkit and the two fonts, read and parsed once, when the first document is rendered rather than
 * when the site starts (pdfkit with its font tables is about 25 MB of memory: decision 0051).
 * fontkit parses a font's tables as they are first needed and keeps them on the font object;
 * handed the files' paths, pdfkit read and parsed both fonts again for every document, which was
 * most of a document's rendering time. A parsed font holds nothing of one document: pdfkit makes
 * each document's subset of it afresh.
 */
let renderer: Promise<Renderer> | undefined;
const loadRenderer = () =>
  (renderer ??= Promise.all([
    import("pdfkit"),
    import("fontkit"),
    readFile(FONT_FILES.regular),
    readFile(FONT_FILES.bold),
  ])
    .then(([pdfkit, fontkit, regular, bold]) => ({
      PDFDocument: pdfkit.default,
      regular: singleFont(fontkit.create(regular)),
      bold: singleFont(fontkit.create(bold)),
    }))
    .catch((error: unknown) => {
      // Not kept: a failed read (a full disk, a moved install) is tried again by the next document.
      renderer = undefined;
      throw error;
    }));

function singleFont(font: Font | FontCollection): Font {
  if ("fonts" in font) throw new Error("expected a single font, not a collection");
  return font;
}

/**
 * pdfkit 0.20 takes a parsed fontkit font wherever it takes a font file (`PDFFontFactory.open`:
 * any source with a `layout` function); @types/pdfkit 0.17 predates that and names only paths
 * and bytes.
 */
const fontSource = (font: Font) => font as unknown as string;

/** Renders the document; its dates come from the document, so a re-render gives the same bytes. */
export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const { PDFDocument, regular, bold } = await loadRenderer();
  const isCredit = doc.kind === "credit_note";
  const issued = new Date(doc.issuedAt);
  const pdf = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    font: fontSource(regular), // instead of the built-in Helvetica, which has no ₹
    lang: "en-IN",
    displayTitle: true,
    info: {
      Title: `${titleOf(doc, isCredit)} ${doc.number}`,
      Author: doc.supplier.legalName,
      CreationDate: issued,
      ModDate: issued,
    },
  });
  pdf.registerFont("regular", fontSource(regular));
  pdf.registerFont("bold", fontSource(bold));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
    let y = header(pdf, doc, isCredit);
    y = billTo(pdf, doc, y);
    y = lineItems(pdf, doc.lines, y, doc.export);
    y = totals(pdf, doc, y);
    footer(pdf, doc, isCredit, y);
    pdf.end();
  });
}
