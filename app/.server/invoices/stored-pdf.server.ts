/**
 * Issued documents are immutable as documents: the PDF is rendered once, in the transaction that
 * issues it, and stored with its SHA-256. Every reader (the buyer's and the admin's download, the
 * month's ZIP, the receipt mail) gets the stored bytes, checked against the hash on each read, so
 * a later change of layout, font or company details never changes a document already issued.
 *
 * Documents issued before PDFs were stored have none: the first read renders one from the stored
 * document and stores it (once; the database refuses to replace it), and every later read serves
 * that copy.
 */
import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { db as defaultDb, type Executor } from "../db";
import { invoices, type InvoiceRow } from "../db/schema";
import { logger } from "../logger";
import { renderInvoicePdf } from "./pdf.server";
import type { InvoiceDocument } from "./types";

export const sha256Hex = (bytes: Uint8Array): string =>
  createHash("sha256").update(bytes).digest("hex");

/** A stored PDF that is not the one its hash describes: served to nobody, re-rendered never. */
export class StoredPdfMismatchError extends Error {
  constructor(readonly invoiceNumber: string) {
    super(`the stored PDF of ${invoiceNumber} does not match its SHA-256`);
    this.name = "StoredPdfMismatchError";
  }
}

export interface StoredPdf {
  pdf: Buffer;
  pdfSha256: string;
}

/** The PDF of a document being issued, with its hash: stored with the row, in its transaction. */
export async function renderForIssue(document: InvoiceDocument): Promise<StoredPdf> {
  const pdf = await renderInvoicePdf(document);
  return { pdf, pdfSha256: sha256Hex(pdf) };
}

type Readable = Pick<InvoiceRow, "id" | "number" | "document">;

function checked(row: Readable, stored: StoredPdf): Buffer {
  const actual = sha256Hex(stored.pdf);
  if (actual === stored.pdfSha256) return stored.pdf;
  logger().error(
    {
      invoiceId: row.id,
      number: row.number,
      expectedSha256: stored.pdfSha256,
      actualSha256: actual,
      bytes: stored.pdf.length,
    },
    `the stored PDF of ${row.number} does not match its SHA-256: refused, not re-rendered`,
  );
  throw new StoredPdfMismatchError(row.number);
}

async function readStored(executor: Executor, id: string) {
  const [found] = await executor
    .select({ pdf: invoices.pdf, pdfSha256: invoices.pdfSha256 })
    .from(invoices)
    .where(eq(invoices.id, id));
  if (!found) throw new Error(`invoice ${id} does not exist`);
  return found;
}

const isStored = (value: { pdf: Buffer | null; pdfSha256: string | null }): value is StoredPdf =>
  value.pdf !== null && value.pdfSha256 !== null;

/**
 * The PDF of an issued document, exactly as stored, after checking it against its hash (a
 * mismatch throws StoredPdfMismatchError, logged). A document without a stored PDF (issued
 * before they were stored) gets one now, from its stored document, kept for every later read.
 */
export async function invoicePdf(row: Readable, executor: Executor = defaultDb()): Promise<Buffer> {
  const found = await readStored(executor, row.id);
  if (isStored(found)) return checked(row, found);

  const rendered = await renderForIssue(row.document);
  // Only where none is stored yet: of two first reads at once, the first one's copy is kept.
  const [kept] = await executor
    .update(invoices)
    .set(rendered)
    .where(and(eq(invoices.id, row.id), isNull(invoices.pdf)))
    .returning({ id: invoices.id });
  if (kept) {
    logger().info(
      { invoiceId: row.id, number: row.number, pdfSha256: rendered.pdfSha256 },
      "stored the PDF of a document issued before PDFs were stored",
    );
    return rendered.pdf;
  }
  const stored = await readStored(executor, row.id);
  if (!isStored(stored)) throw new Error(`the PDF of ${row.number} was not stored`);
  return checked(row, stored);
}
