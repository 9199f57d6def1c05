/**
 * Issuing on a real database, on both engines: consecutive numbers under concurrency, one invoice
 * per payment, a new series each financial year, credit notes, immutability, account deletion.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { engines } from "../../../tests/support/engines";
import { insertUser, monthlyPayment, openTestDatabase } from "../../../tests/support/test-database";
import type { Database } from "../db/client";
import { billingProfiles, invoices, user as users } from "../db/schema";
import { issueCreditNoteForRefund, issueInvoiceForPayment, reissueWithBuyer } from "./issue.server";
import type * as PdfModule from "./pdf.server";
import { renderInvoicePdf } from "./pdf.server";

// The renderer as a spy: the test of numbers under load swaps in a stand-in (see there).
vi.mock("./pdf.server", async (importOriginal) => {
  const actual = await importOriginal<typeof PdfModule>();
  return { ...actual, renderInvoicePdf: vi.fn(actual.renderInvoicePdf) };
});
const { renderInvoicePdf: realRender } = await vi.importActual<typeof PdfModule>("./pdf.server");

describe.each(engines())("invoices on $name", (engine) => {
  let database: Database;
  let close: () => Promise<void>;
  let buyer: string;
  let sequence = 0;

  beforeAll(async () => {
    ({ db: database, close } = await openTestDatabase({ engine }));
    buyer = await insertUser(database, {
      email: `buyer-${engine.name}@example.com`,
      name: "Meera",
    });
    await database.insert(billingProfiles).values({
      userId: buyer,
      name: "Meera Traders LLP",
      addressLine1: "5 Linking Road",
      city: "Mumbai",
      postalCode: "400050",
      stateCode: "27",
      gstin: "27AAPFU0939F1ZV",
    });
  });
  afterAll(() => close());

  const payment = (paidAt = new Date("2026-11-23T10:00:00Z"), amountPaise = 69_900) => {
    sequence += 1;
    const paymentId = `pay_${engine.name}${String(sequence).padStart(8, "0")}`;
    return monthlyPayment({ paymentId, userId: buyer, paidAt, amountPaise });
  };
  const issue = (input: ReturnType<typeof payment>) =>
    database.transaction((tx) => issueInvoiceForPayment(tx, input));

  it("numbers 100 payments processed at once 1..100, with no gap and no duplicate", async () => {
    // Numbers, not PDFs: each document's PDF is rendered under the series lock (about 0.1 s), so
    // 100 real renders one after another outlast the pool's 5 s wait for a connection. In the
    // server, issuing runs in the money lane's two slots; real PDFs under concurrency are tested
    // in stored-pdf.test.ts.
    const render = vi.mocked(renderInvoicePdf);
    render.mockImplementation(async (document) => Buffer.from(`%PDF-stand-in ${document.number}`));
    const rows = await Promise.all(Array.from({ length: 100 }, () => issue(payment()))).finally(
      () => render.mockImplementation(realRender),
    );
    const numbers = rows.map((row) => row.sequence).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    expect(new Set(rows.map((row) => row.number)).size).toBe(100);
    expect(rows.find((row) => row.sequence === 42)?.number).toBe("PL/26-27/000042");
    for (const row of rows) expect(row.number.length).toBeLessThanOrEqual(16);
  });

  it("issues one invoice per payment however often it is processed, without using up a number", async () => {
    const input = payment();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => issue(input)));
    const issued = results
      .filter((result) => result.status === "fulfilled")
      .map((result) => result.value.id);
    expect(new Set(issued).size).toBe(1);
    const stored = await database
      .select()
      .from(invoices)
      .where(eq(invoices.providerPaymentId, input.paymentId));
    expect(stored).toHaveLength(1);
    // The next payment takes the very next number.
    const next = await issue(payment());
    expect(next.sequence).toBe(stored[0]!.sequence + 1);
  });

  it("copies buyer and supplier into the document: inter-state IGST for Maharashtra", async () => {
    const row = await issue(payment());
    const document = row.document;
    expect(document.buyer).toMatchObject({
      legalName: "Meera Traders LLP",
      gstin: "27AAPFU0939F1ZV",
      stateCode: "27",
    });
    expect(document.supplier).toMatchObject({ gstin: "29AAPCP1234F1ZC", stateCode: "29" });
    expect(document.placeOfSupply).toEqual({ code: "27", name: "Maharashtra" });
    expect(row).toMatchObject({ b2b: true, cgstPaise: 0, sgstPaise: 0, totalPaise: 69_900 });
    expect(row.igstPaise).toBeGreaterThan(0);
    expect(document.amountInWords).toBe("Rupees Six Hundred Ninety-Nine Only");

    // Later edits of the billing details never change an issued invoice.
    await database
      .update(billingProfiles)
      .set({ name: "Renamed" })
      .where(eq(billingProfiles.userId, buyer));
    const [again] = await database.select().from(invoices).where(eq(invoices.id, row.id));
    expect(again!.document.buyer.legalName).toBe("Meera Traders LLP");
    await database
      .update(billingProfiles)
      .set({ name: "Meera Traders LLP" })
      .where(eq(billingProfiles.userId, buyer));
    // And the database refuses to change or delete one.
    await expect(
      database.update(invoices).set({ totalPaise: 1 }).where(eq(invoices.id, row.id)),
    ).rejects.toThrow();
    await expect(database.delete(invoices).where(eq(invoices.id, row.id))).rejects.toThrow();
    // Nor give it to a team (issue 37): a team's link may only be cleared, when the team goes.
    await database.execute(
      sql`insert into organization (id, name, slug, created_at) values ('org_other', 'Other', 'team-other', now())`,
    );
    await expect(
      database.update(invoices).set({ teamId: "org_other" }).where(eq(invoices.id, row.id)),
    ).rejects.toThrow();
  });

  it("starts a new series on 1 April, India time", async () => {
    const march = await issue(payment(new Date("2027-03-31T18:29:59Z")));
    const april = await issue(payment(new Date("2027-03-31T18:30:00Z")));
    expect(march.number).toMatch(/^PL\/26-27\//);
    expect(april.number).toBe("PL/27-28/000001");
  });

  it("issues a credit note for a refund, in its own series, with the tax reversed", async () => {
    const invoice = await issue(payment());
    const credit = await database.transaction((tx) =>
      issueCreditNoteForRefund(tx, {
        refundId: `rfnd_${engine.name}0001`,
        paymentId: invoice.providerPaymentId!,
        amountPaise: 34_950,
        refundedAt: new Date("2026-11-25T10:00:00Z"),
      }),
    );
    expect(credit).toMatchObject({
      kind: "credit_note",
      number: "PL/CN/26-27/0001",
      totalPaise: 34_950,
    });
    expect(credit!.taxablePaise + credit!.igstPaise).toBe(34_950);
    expect(credit!.document.original?.number).toBe(invoice.number);
    // The same refund again: the same credit note.
    const again = await database.transaction((tx) =>
      issueCreditNoteForRefund(tx, {
        refundId: `rfnd_${engine.name}0001`,
        paymentId: invoice.providerPaymentId!,
        amountPaise: 34_950,
        refundedAt: new Date(),
      }),
    );
    expect(again?.id).toBe(credit!.id);
  });

  it("corrects a buyer's GSTIN with a credit note and a new invoice, never in place", async () => {
    const original = await issue(payment());
    const { creditNote, invoice } = await database.transaction((tx) =>
      reissueWithBuyer(
        tx,
        original,
        {
          ...original.document.buyer,
          gstin: "27AAPFU0939F1ZV",
          legalName: "Meera Traders",
        },
        new Date("2026-11-26T10:00:00Z"),
      ),
    );
    expect(creditNote).toMatchObject({
      kind: "credit_note",
      totalPaise: original.totalPaise,
      originalInvoiceId: original.id,
    });
    expect(invoice).toMatchObject({ kind: "invoice", totalPaise: original.totalPaise });
    expect(invoice.document.buyer.legalName).toBe("Meera Traders");
  });

  it("keeps the invoices of a deleted account, unlinked, with the buyer's copy", async () => {
    const leaving = await insertUser(database, {
      email: `leaving-${engine.name}@example.com`,
      name: "Leaving",
    });
    const row = await database.transaction((tx) =>
      issueInvoiceForPayment(tx, { ...payment(), userId: leaving }),
    );
    await database.delete(users).where(eq(users.id, leaving));
    const [kept] = await database.select().from(invoices).where(eq(invoices.id, row.id));
    expect(kept?.userId).toBeNull();
    expect(kept!.document.buyer.legalName).toBe("Leaving");
    expect(kept?.number).toBe(row.number);
  });
});
