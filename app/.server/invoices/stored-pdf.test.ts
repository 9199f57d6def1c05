/**
 * Issued documents are immutable as documents (issue 20, point 11): the PDF is rendered once, in
 * the issuing transaction, stored with its SHA-256 and served as stored, whatever the layout, the
 * font or the company's address in the configuration become later. On both engines.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { site } from "~/config/site";
import { engines } from "../../../tests/support/engines";
import { insertUser, monthlyPayment, openTestDatabase } from "../../../tests/support/test-database";
import type { Database } from "../db/client";
import { invoices, type InvoiceRow } from "../db/schema";
import { logger } from "../logger";
import { issueCreditNoteForRefund, issueInvoiceForPayment, supplierParty } from "./issue.server";
import type * as PdfModule from "./pdf.server";
import { renderInvoicePdf } from "./pdf.server";
import { invoicePdf, sha256Hex, StoredPdfMismatchError } from "./stored-pdf.server";

// The renderer as a spy, so a test can count renders and swap in a "new layout".
vi.mock("./pdf.server", async (importOriginal) => {
  const actual = await importOriginal<typeof PdfModule>();
  return { ...actual, renderInvoicePdf: vi.fn(actual.renderInvoicePdf) };
});
const render = vi.mocked(renderInvoicePdf);
const { renderInvoicePdf: renderToday } = await vi.importActual<typeof PdfModule>("./pdf.server");

const ADDRESS = { ...site.company.address };
const SUPPORT_EMAIL = site.company.supportEmail;

describe.each(engines())("stored invoice PDFs on $name", (engine) => {
  let database: Database;
  let close: () => Promise<void>;
  let buyer: string;
  let sequence = 0;

  beforeAll(async () => {
    ({ db: database, close } = await openTestDatabase({ engine }));
    buyer = await insertUser(database, { email: `pdf-${engine.name}@example.com`, name: "Ravi" });
  });
  afterAll(() => close());
  afterEach(() => {
    Object.assign(site.company.address, ADDRESS);
    site.company.supportEmail = SUPPORT_EMAIL;
    render.mockImplementation(renderToday);
    render.mockClear();
    vi.restoreAllMocks();
  });

  const issue = (paidAt = new Date("2026-11-23T19:18:00Z")) => {
    sequence += 1;
    const paymentId = `pay_pdf${engine.name}${String(sequence).padStart(6, "0")}`;
    return database.transaction((tx) =>
      issueInvoiceForPayment(tx, monthlyPayment({ paymentId, userId: buyer, paidAt })),
    );
  };
  const stored = async (row: InvoiceRow) => {
    const [found] = await database
      .select({ pdf: invoices.pdf, pdfSha256: invoices.pdfSha256 })
      .from(invoices)
      .where(eq(invoices.id, row.id));
    return found!;
  };
  /** What only an operator with the table owner's rights could do: write past the trigger. */
  const pastTheTrigger = async (statement: SQL) => {
    await database.transaction(async (tx) => {
      await tx.execute(sql`alter table invoices disable trigger invoices_immutable`);
      await tx.execute(statement);
      await tx.execute(sql`alter table invoices enable trigger invoices_immutable`);
    });
  };

  it("stores each document's PDF and its SHA-256 in the transaction that issues it", async () => {
    const invoice = await issue();
    const credit = await database.transaction((tx) =>
      issueCreditNoteForRefund(tx, {
        refundId: `rfnd_pdf${engine.name}01`,
        paymentId: invoice.providerPaymentId!,
        amountPaise: 10_000,
        refundedAt: new Date("2026-11-25T10:00:00Z"),
      }),
    );
    for (const row of [invoice, credit!]) {
      const { pdf, pdfSha256 } = await stored(row);
      expect(Buffer.isBuffer(pdf)).toBe(true);
      expect(pdf!.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pdfSha256).toBe(sha256Hex(pdf!));
      expect(await invoicePdf(row, database)).toEqual(pdf);
    }
    // A transaction that rolls back leaves neither the document nor its PDF.
    const before = await database.select({ id: invoices.id }).from(invoices);
    await expect(
      database.transaction(async (tx) => {
        await issueInvoiceForPayment(tx, {
          paymentId: `pay_pdf${engine.name}rollback`,
          amountPaise: 69_900,
          paidAt: new Date("2026-11-24T10:00:00Z"),
          userId: buyer,
          planId: "pro-monthly",
          periodStart: null,
          periodEnd: null,
        });
        throw new Error("the payment's transaction failed later");
      }),
    ).rejects.toThrow("failed later");
    expect(await database.select({ id: invoices.id }).from(invoices)).toHaveLength(before.length);
  });

  it("issues ten documents at once, each numbered in turn with its own stored PDF", async () => {
    // A series of its own (FY 2027-28), so its numbers are 1..10.
    const rows = await Promise.all(
      Array.from({ length: 10 }, () => issue(new Date("2027-05-02T10:00:00Z"))),
    );
    expect(rows.map((row) => row.sequence).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    const hashes = new Set<string>();
    for (const row of rows) {
      const { pdf, pdfSha256 } = await stored(row);
      expect(pdfSha256).toBe(sha256Hex(pdf!));
      hashes.add(pdfSha256!);
    }
    expect(hashes.size).toBe(10);
  });

  it("serves the same bytes after the company's address, the layout and the font change", async () => {
    const row = await issue();
    const first = await invoicePdf(row, database);

    // The company moves, and a new renderer prints the seller from today's configuration.
    Object.assign(site.company.address, {
      line1: "Unit 7, 100 Feet Road",
      line2: "Indiranagar",
      postalCode: "560038",
    });
    site.company.supportEmail = "help@pinout.example";
    render.mockImplementation((document) =>
      renderToday({ ...document, supplier: supplierParty() }),
    );
    const rerendered = await renderInvoicePdf(row.document);
    expect(rerendered.equals(first)).toBe(false);
    render.mockClear();

    const again = await invoicePdf(row, database);
    expect(again.equals(first)).toBe(true);
    expect(sha256Hex(again)).toBe(sha256Hex(first));
    expect(render).not.toHaveBeenCalled();

    // What is issued from now on carries the new address; the old document keeps its own.
    const later = await issue();
    expect(later.document.supplier.addressLines[0]).toBe("Unit 7, 100 Feet Road");
    expect(row.document.supplier.addressLines[0]).toBe(ADDRESS.line1);
  });

  it("refuses a stored PDF whose bytes no longer match their hash, and never renders it again", async () => {
    const row = await issue();
    await pastTheTrigger(
      sql`update invoices set pdf = set_byte(pdf, 200, get_byte(pdf, 200) # 1) where id = ${row.id}`,
    );
    const errors = vi.spyOn(logger(), "error");
    render.mockClear();
    await expect(invoicePdf(row, database)).rejects.toBeInstanceOf(StoredPdfMismatchError);
    expect(render).not.toHaveBeenCalled();
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ invoiceId: row.id, number: row.number }),
      expect.stringMatching(/stored PDF of .* does not match its SHA-256/),
    );
  });

  it("renders a document issued before PDFs were stored on its first read, stores it, and serves that since", async () => {
    const row = await issue();
    const issued = await stored(row);
    // As the rows issued before this change: no PDF, no hash.
    await pastTheTrigger(
      sql`update invoices set pdf = null, pdf_sha256 = null where id = ${row.id}`,
    );
    expect(await stored(row)).toEqual({ pdf: null, pdfSha256: null });

    render.mockClear();
    const first = await invoicePdf(row, database);
    expect(render).toHaveBeenCalledTimes(1);
    // Rendered from the stored document with today's renderer: the bytes it was issued with.
    expect(first.equals(issued.pdf!)).toBe(true);
    expect(await stored(row)).toEqual({ pdf: first, pdfSha256: sha256Hex(first) });

    // From now on the stored copy: a new layout changes nothing.
    render.mockImplementation((document) => renderToday({ ...document, reason: "new layout" }));
    render.mockClear();
    expect((await invoicePdf(row, database)).equals(first)).toBe(true);
    expect(render).not.toHaveBeenCalled();

    // Several first reads at once all serve the one copy that was stored.
    render.mockImplementation(renderToday);
    const other = await issue();
    await pastTheTrigger(
      sql`update invoices set pdf = null, pdf_sha256 = null where id = ${other.id}`,
    );
    const reads = await Promise.all([1, 2, 3].map(() => invoicePdf(other, database)));
    const { pdf } = await stored(other);
    for (const read of reads) expect(read.equals(pdf!)).toBe(true);
  });

  it("lets the database store a PDF once, where none was stored, and never replace or remove it", async () => {
    const row = await issue();
    const { pdf } = await stored(row);
    const update = (values: Partial<typeof invoices.$inferInsert>) =>
      database.update(invoices).set(values).where(eq(invoices.id, row.id));
    await expect(update({ pdf: Buffer.from("%PDF-forged") })).rejects.toThrow();
    await expect(update({ pdfSha256: "0".repeat(64) })).rejects.toThrow();
    await expect(update({ pdf: null, pdfSha256: null })).rejects.toThrow();
    expect((await stored(row)).pdf!.equals(pdf!)).toBe(true);

    // Once, on a document without one: only with its hash, a well-formed one.
    await pastTheTrigger(
      sql`update invoices set pdf = null, pdf_sha256 = null where id = ${row.id}`,
    );
    await expect(update({ pdf: pdf! })).rejects.toThrow();
    await expect(update({ pdf: pdf!, pdfSha256: "not-a-hash" })).rejects.toThrow();
    await update({ pdf: pdf!, pdfSha256: sha256Hex(pdf!) });
    await expect(
      update({ pdf: pdf!.subarray(1), pdfSha256: sha256Hex(pdf!.subarray(1)) }),
    ).rejects.toThrow();
    // The rest of the row stays as issued, as before.
    await expect(update({ totalPaise: 1 })).rejects.toThrow();
  });
});
