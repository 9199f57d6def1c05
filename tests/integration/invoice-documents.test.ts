/**
 * Issue 20, point 11: an issued invoice is immutable as a document. Its PDF is rendered once when
 * it is issued and stored with its SHA-256; the buyer's and the admin's downloads, the month's ZIP
 * and the receipt mail all carry those stored bytes, checked against the hash on every read.
 *
 * The company's address is compiled into the build (app/config/site.ts), so a restart cannot
 * change it; app/.server/invoices/stored-pdf.test.ts changes it (and the layout) and reads the
 * same bytes. Here: the same bytes on every path and across a restart, equal to the stored
 * column and its hash; bytes replaced in the database are served as they are (nothing is
 * rendered again); a changed byte is a 500 with a log line; a document issued before PDFs were
 * stored gets its PDF on the first download, stored from then on. On PGlite and PostgreSQL.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { unzipSync } from "fflate";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  getWithCookies,
  postForm,
  signUpAdmin,
  signUpVerified,
} from "../support/auth";
import { eventually } from "../support/eventually";
import { pageText } from "../support/pages";
import { sandboxPay, startCheckout } from "../support/billing";
import { contractEngines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { type RunningTestServer, startServer, startedDataDir } from "../support/server";

const PASSWORD = "invoice-documents-password-1";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Statements on the server's database, in one transaction, with the server stopped (PGlite). */
async function onDatabase<T = Record<string, unknown>>(
  dataDir: string,
  databaseUrl: string | undefined,
  statements: { text: string; params?: unknown[] }[],
): Promise<T[]> {
  let rows: T[] = [];
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("begin");
      for (const { text, params } of statements) rows = (await client.query(text, params)).rows;
      await client.query("commit");
    } finally {
      await client.end();
    }
    return rows;
  }
  const database = new PGlite(path.join(dataDir, "db"));
  try {
    await database.transaction(async (tx) => {
      for (const { text, params } of statements) rows = (await tx.query<T>(text, params)).rows;
    });
  } finally {
    await database.close();
  }
  return rows;
}

/** An UPDATE past the immutability trigger: what only someone with the owner's rights can do. */
const pastTheTrigger = (text: string, params: unknown[]) => [
  { text: "alter table invoices disable trigger invoices_immutable" },
  { text, params },
  { text: "alter table invoices enable trigger invoices_immutable" },
];

/** The PDF attached to a raw message (base64 in its application/pdf part). */
function pdfAttachment(raw: string): Buffer | null {
  const match = /Content-Type: application\/pdf[^]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n--/i.exec(
    raw,
  );
  return match ? Buffer.from(match[1]!.replace(/\s+/g, ""), "base64") : null;
}

/** "2026-11" for an instant, in India (the admin's month filter). */
const indiaMonth = (date: Date) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata", year: "numeric", month: "2-digit" })
    .format(date)
    .slice(0, 7);

describe.each(contractEngines("stored documents"))("issued invoice PDFs on $name", (engine) => {
  const dataDir = startedDataDir(engine);
  let databaseUrl: string | undefined;
  let server: RunningTestServer;
  let boss: string;
  let buyer: string;
  let invoice: { id: string; path: string; number: string; issuedAt: Date };
  let issued: Buffer;

  const start = async () => {
    server = await startServer({
      dataDir,
      env: { DATABASE_URL: databaseUrl, ADMIN_EMAILS: ADMIN_EMAIL, AUTH_RATE_LIMIT: "1000" },
    });
  };
  const download = async (cookie: string, url = invoice.path) => {
    const response = await getWithCookies(server, url, cookie);
    return { status: response.status, response, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const storedRow = async () => {
    const [row] = await onDatabase<{ pdf: Uint8Array | null; pdf_sha256: string | null }>(
      dataDir,
      databaseUrl,
      [{ text: "select pdf, pdf_sha256 from invoices where id = $1", params: [invoice.id] }],
    );
    return { pdf: row?.pdf ? Buffer.from(row.pdf) : null, sha256: row?.pdf_sha256 ?? null };
  };
  /** Stops the server, runs the statements, starts it again on the same data. */
  const whileStopped = async (statements: { text: string; params?: unknown[] }[]) => {
    await server.stop();
    await onDatabase(dataDir, databaseUrl, statements);
    await start();
  };

  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    await start();
    boss = await signUpAdmin(server, PASSWORD);
    // A purchase through the sandbox: the payment's invoice is issued as its event is processed.
    buyer = await signUpVerified(server, {
      name: "Kavya",
      email: "kavya@example.com",
      password: PASSWORD,
    });
    const started = await startCheckout(server, buyer, "pro-monthly");
    expect(started.status).toBe(200);
    const paid = await sandboxPay(server, started.subscriptionId!, "success");
    expect(paid.status).toBe(200);
    const verified = await postForm(server, "/checkout.data", buyer, {
      intent: "verify",
      ...paid.body,
    });
    expect(verified.status).toBeLessThan(400);
    const link = await eventually(
      async () => {
        const html = await (await getWithCookies(server, "/invoices", buyer)).text();
        return /\/invoices\/([0-9a-f-]{36})\.pdf/.exec(html) ?? undefined;
      },
      30_000,
      "the invoice on /invoices",
    );
    const text = await pageText(server, "/invoices", buyer);
    invoice = {
      id: link[1]!,
      path: link[0],
      number: /PL\/\d{2}-\d{2}\/\d{6}/.exec(text)![0],
      issuedAt: new Date(),
    };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves the stored bytes on every path: downloads, the admin's ZIP, the receipt mail, after a restart", async () => {
    const first = await download(buyer);
    expect(first.status).toBe(200);
    expect(first.response.headers.get("content-type")).toBe("application/pdf");
    expect(first.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    issued = first.bytes;
    const second = await download(buyer);
    expect(second.bytes.equals(issued)).toBe(true);
    expect((await download(boss)).bytes.equals(issued)).toBe(true);

    // The receipt carries the same bytes.
    const receipt = await eventually(
      async () =>
        readOutbox(dataDir).find(
          (mail) => mail.to.includes("kavya@example.com") && mail.subject.startsWith("Payment"),
        ),
      30_000,
      "the receipt",
    );
    const attached = pdfAttachment(
      fs.readFileSync(path.join(dataDir, "mail", receipt.file), "utf8"),
    );
    expect(attached?.equals(issued)).toBe(true);

    // They are the stored column, and its hash is theirs.
    await server.stop();
    const stored = await storedRow();
    expect(stored.pdf?.equals(issued)).toBe(true);
    expect(stored.sha256).toBe(sha256(issued));
    const [row] = await onDatabase<{ issued_at: Date | string }>(dataDir, databaseUrl, [
      { text: "select issued_at from invoices where id = $1", params: [invoice.id] },
    ]);
    invoice.issuedAt = new Date(row!.issued_at);
    await start();

    // After a restart: the same, and the month's ZIP holds the same file.
    expect((await download(buyer)).bytes.equals(issued)).toBe(true);
    const zip = await download(
      boss,
      `/admin/invoices/documents.zip?month=${indiaMonth(invoice.issuedAt)}`,
    );
    expect(zip.status).toBe(200);
    const files = unzipSync(new Uint8Array(zip.bytes));
    const inZip = files[`${invoice.number.replaceAll("/", "-")}.pdf`];
    expect(inZip && Buffer.from(inZip).equals(issued)).toBe(true);
  });

  it("serves bytes replaced in the database as they are, and refuses a changed byte with a 500", async () => {
    // Another valid copy with its own hash is served as stored: nothing is rendered on read.
    const replacement = Buffer.concat([issued, Buffer.from("\n% stored copy\n", "latin1")]);
    await whileStopped(
      pastTheTrigger("update invoices set pdf = $1, pdf_sha256 = $2 where id = $3", [
        replacement,
        sha256(replacement),
        invoice.id,
      ]),
    );
    const served = await download(buyer);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(replacement)).toBe(true);

    // One byte changed, hash kept: refused on every path, and logged, never re-rendered.
    await whileStopped(
      pastTheTrigger(
        "update invoices set pdf = set_byte(pdf, 300, get_byte(pdf, 300) # 1) where id = $1",
        [invoice.id],
      ),
    );
    expect((await download(buyer)).status).toBe(500);
    expect((await download(boss)).status).toBe(500);
    const month = indiaMonth(invoice.issuedAt);
    expect((await download(boss, `/admin/invoices/documents.zip?month=${month}`)).status).toBe(500);
    expect(server.output()).toContain(
      `the stored PDF of ${invoice.number} does not match its SHA-256`,
    );
    await server.stop();
    const stored = await storedRow();
    expect(sha256(stored.pdf!)).not.toBe(stored.sha256);
    await start();
  });

  it("stores the PDF of a document issued before PDFs were stored on its first download", async () => {
    // As a row issued before the migration: no PDF, no hash.
    await whileStopped(
      pastTheTrigger("update invoices set pdf = null, pdf_sha256 = null where id = $1", [
        invoice.id,
      ]),
    );
    const first = await download(buyer);
    expect(first.status).toBe(200);
    // Rendered from the stored document by the same build: the bytes it was issued with.
    expect(first.bytes.equals(issued)).toBe(true);
    expect((await download(boss)).bytes.equals(issued)).toBe(true);
    expect(server.output()).toContain(
      "stored the PDF of a document issued before PDFs were stored",
    );
    await server.stop();
    const stored = await storedRow();
    expect(stored.pdf?.equals(issued)).toBe(true);
    expect(stored.sha256).toBe(sha256(issued));
    await start();
  });
});
