import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import type * as FsPromises from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { FONT_FILES, formatRupees, renderInvoicePdf } from "./pdf.server";
import type { InvoiceDocument, Party } from "./types";

// Hand-built documents: the PDF prints what it is given, so these need not come from the engine.
const supplier: Party = {
  legalName: "Pinout Labs Private Limited",
  addressLines: [
    "3rd Floor, 42 Residency Road",
    "Shanthala Nagar, Ashok Nagar",
    "Bengaluru, Karnataka 560025",
  ],
  stateCode: "29",
  stateName: "Karnataka",
  gstin: "29AAPCP1234F1ZC",
  email: "support@pinout.dev",
};

const line = {
  description:
    "Licensing services for the right to use computer software: Pinout Pro (monthly) subscription",
  sac: "997331",
  periodStart: "2026-11-23",
  periodEnd: "2026-12-22",
  quantity: 1,
};

const intraStateB2c: InvoiceDocument = {
  kind: "invoice",
  number: "PL/26-27/000042",
  issuedAt: "2026-11-23T04:30:00.000Z",
  paymentId: "pay_NXq2abc123DEF",
  original: null,
  reason: null,
  supplier,
  buyer: {
    legalName: "Asha Menon",
    addressLines: ["14 Church Street", "Bengaluru 560001"],
    stateCode: "29",
    stateName: "Karnataka",
    gstin: null,
  },
  placeOfSupply: { code: "29", name: "Karnataka" },
  interState: false,
  b2b: false,
  lines: [{ ...line, taxablePaise: 59_238 }],
  tax: {
    taxablePaise: 59_238,
    cgstRate: 9,
    sgstRate: 9,
    igstRate: 0,
    cgstPaise: 5_331,
    sgstPaise: 5_331,
    igstPaise: 0,
    totalPaise: 69_900,
  },
  amountInWords: "Rupees Six Hundred Ninety-Nine Only",
  reverseCharge: false,
};

const interStateB2b: InvoiceDocument = {
  ...intraStateB2c,
  number: "PL/26-27/000043",
  paymentId: "pay_NXq2xyz789GHI",
  buyer: {
    legalName: "Umbrella Embedded Systems LLP",
    addressLines: ["Unit 7, Andheri Industrial Estate", "Mumbai 400053"],
    stateCode: "27",
    stateName: "Maharashtra",
    gstin: "27AAPFU0939F1ZV",
  },
  placeOfSupply: { code: "27", name: "Maharashtra" },
  interState: true,
  b2b: true,
  lines: [
    {
      ...line,
      description: line.description.replace("monthly", "yearly"),
      periodEnd: "2027-11-22",
      taxablePaise: 593_136,
    },
  ],
  tax: {
    taxablePaise: 593_136,
    cgstRate: 0,
    sgstRate: 0,
    igstRate: 18,
    cgstPaise: 0,
    sgstPaise: 0,
    igstPaise: 106_764,
    totalPaise: 699_900,
  },
  amountInWords: "Rupees Six Thousand Nine Hundred Ninety-Nine Only",
};

const creditNote: InvoiceDocument = {
  ...intraStateB2c,
  kind: "credit_note",
  number: "PL/CN/26-27/0007",
  issuedAt: "2026-11-30T09:00:00.000Z",
  original: { number: intraStateB2c.number, issuedAt: intraStateB2c.issuedAt },
  reason: "Refund",
};

const workDir = mkdtempSync(join(tmpdir(), "invoice-pdf-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs a poppler tool on the PDF; a missing tool fails loudly, since CI must check the text. */
function poppler(tool: "pdftotext" | "pdfinfo", pdf: Buffer, args: string[]): string {
  const file = join(workDir, `${tool}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    return execFileSync(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])], {
      encoding: "utf8",
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(`${tool} not found: apt-get install poppler-utils`, { cause: error });
    }
    throw error;
  }
}

async function render(doc: InvoiceDocument) {
  const pdf = await renderInvoicePdf(doc);
  return {
    pdf,
    text: poppler("pdftotext", pdf, ["-layout"]),
    info: poppler("pdfinfo", pdf, []),
  };
}

const ruleFortySix = [
  "Pinout Labs Private Limited",
  "3rd Floor, 42 Residency Road",
  "GSTIN: 29AAPCP1234F1ZC",
  "State: Karnataka (29)",
  "Date: 23 Nov 2026",
  "Reverse charge: No",
  "997331",
  "Taxable value",
  "This is a computer-generated",
  "support@pinout.dev",
];

describe("renderInvoicePdf", () => {
  it("finds both fonts on disk", () => {
    expect(existsSync(FONT_FILES.regular)).toBe(true);
    expect(existsSync(FONT_FILES.bold)).toBe(true);
  });

  it("formats rupees with Indian grouping and two decimals", () => {
    expect(formatRupees(699_900)).toBe("₹6,999.00");
    expect(formatRupees(123_456_750)).toBe("₹12,34,567.50");
    expect(formatRupees(59_238)).toBe("₹592.38");
  });

  it("prints an inter-state B2B invoice with IGST only, on one page", async () => {
    const { pdf, text, info } = await render(interStateB2b);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    for (const field of ruleFortySix) expect(text).toContain(field);
    expect(text).toContain("Tax Invoice");
    expect(text).toContain("Original for recipient");
    expect(text).toContain("Invoice No.: PL/26-27/000043");
    expect(text).toContain("Payment ID: pay_NXq2xyz789GHI");
    expect(text).toContain("Umbrella Embedded Systems LLP");
    expect(text).toContain("State: Maharashtra (27)");
    expect(text).toContain("GSTIN: 27AAPFU0939F1ZV");
    expect(text).toContain("Place of supply: Maharashtra (27)");
    expect(text).toContain("Period: 23 Nov 2026 – 22 Nov 2027");
    expect(text).toContain("IGST @ 18%");
    expect(text).toContain("₹1,067.64");
    expect(text).toContain("₹5,931.36");
    expect(text).toMatch(/Total\s+₹6,999\.00/);
    expect(text).not.toContain("CGST");
    expect(text).not.toContain("SGST");
    expect(text).toContain("Amount in words: Rupees Six Thousand Nine Hundred Ninety-Nine Only");
    expect(text).toContain("computer-generated invoice and needs no signature.");
    expect(info).toMatch(/^Pages:\s+1$/m);
    expect(info).toMatch(/^Title:\s+Tax Invoice PL\/26-27\/000043$/m);
    expect(info).toMatch(/^Author:\s+Pinout Labs Private Limited$/m);
  });

  it("prints an intra-state B2C invoice with CGST and SGST and an unregistered buyer", async () => {
    const { text, info } = await render(intraStateB2c);
    for (const field of ruleFortySix) expect(text).toContain(field);
    expect(text).toContain("Invoice No.: PL/26-27/000042");
    expect(text).toContain("Asha Menon");
    expect(text).toContain("GSTIN: Unregistered");
    expect(text).toContain("Place of supply: Karnataka (29)");
    expect(text).toMatch(/CGST @ 9%\s+₹53\.31/);
    expect(text).toMatch(/SGST @ 9%\s+₹53\.31/);
    expect(text).not.toContain("IGST");
    expect(text).toMatch(/Total\s+₹699\.00/);
    expect(text).toContain("Amount in words: Rupees Six Hundred Ninety-Nine Only");
    expect(info).toMatch(/^Pages:\s+1$/m);
  });

  it("prints a credit note against the original invoice", async () => {
    const { text, info } = await render(creditNote);
    expect(text).toContain("Credit Note");
    expect(text).not.toContain("Tax Invoice");
    expect(text).toContain("Credit Note No.: PL/CN/26-27/0007");
    expect(text).toContain("Date: 30 Nov 2026");
    expect(text).toContain("Against invoice: PL/26-27/000042 dated 23 Nov 2026");
    expect(text).toContain("Reason: Refund");
    expect(text).toContain("computer-generated credit note and needs no signature.");
    expect(info).toMatch(/^Pages:\s+1$/m);
    expect(info).toMatch(/^Title:\s+Credit Note PL\/CN\/26-27\/0007$/m);
  });

  it("prints the supplier's CIN when the document carries it, and none on one issued before", async () => {
    const withCin = await render({
      ...intraStateB2c,
      supplier: { ...supplier, cin: "U62011KA2024PTC123456" },
    });
    expect(withCin.text).toContain("CIN: U62011KA2024PTC123456");
    expect(withCin.info).toMatch(/^Pages:\s+1$/m);
    expect((await render(intraStateB2c)).text).not.toContain("CIN:");
  });

  it("renders the same document to the same bytes", async () => {
    const [first, second] = await Promise.all([
      renderInvoicePdf(interStateB2b),
      renderInvoicePdf(interStateB2b),
    ]);
    expect(first.equals(second)).toBe(true);
  });

  it("renders with the fonts it parsed once, and reads them again after a failed read", async () => {
    // A fresh copy of the module whose file reads fail while `failing` is set.
    let failing = true;
    let reads = 0;
    vi.resetModules();
    vi.doMock("node:fs/promises", async (original) => {
      const real = await original<typeof FsPromises>();
      // One signature for readFile's overloads: the module under test reads bytes only.
      const readFile = ((...args: Parameters<typeof real.readFile>) => {
        reads += 1;
        return failing ? Promise.reject(new Error("EIO: the disk failed")) : real.readFile(...args);
      }) as typeof real.readFile;
      return { ...real, readFile, default: { ...real, readFile } };
    });
    try {
      const fresh = await import("./pdf.server");
      await expect(fresh.renderInvoicePdf(interStateB2b)).rejects.toThrow("EIO");
      failing = false;
      const pdf = await fresh.renderInvoicePdf(interStateB2b);
      expect(pdf.equals(await renderInvoicePdf(interStateB2b))).toBe(true);
      const afterRecovery = reads;
      await fresh.renderInvoicePdf(creditNote);
      await fresh.renderInvoicePdf(intraStateB2c);
      // Two fonts read for the failed attempt and two for the one after it; none since.
      expect(afterRecovery).toBe(4);
      expect(reads).toBe(4);
    } finally {
      vi.doUnmock("node:fs/promises");
      vi.resetModules();
    }
  });
});
