import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The text of a PDF, as pdftotext (poppler-utils) reads it with its layout: what the invoice and
 * credit-note tests read back, in every runner.
 */
export function pdfText(bytes: Buffer): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-text-"));
  try {
    const file = path.join(folder, "document.pdf");
    fs.writeFileSync(file, bytes);
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
