import { strToU8, zipSync } from "fflate";
import { requireAdmin } from "~/.server/auth/session";
import { gstr1Csv } from "~/.server/invoices/gstr1.server";
import { gstr1OfflineFiles } from "~/.server/invoices/gstr1-offline.server";
import { invoicesInPeriod, parseInvoiceFilter } from "~/.server/invoices/queries.server";
import { invoicePdf } from "~/.server/invoices/stored-pdf.server";
import type { Route } from "./+types/invoices-export";

/**
 * /admin/invoices/gstr1.csv (one combined CSV), /admin/invoices/gstr1-offline.zip (a CSV per
 * section, for the GST offline tool) and /admin/invoices/documents.zip for a month (?month=2026-11).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const filter = parseInvoiceFilter(new URL(request.url).searchParams);
  const rows = await invoicesInPeriod(filter);
  if (params.file === "gstr1.csv") {
    return new Response(gstr1Csv(rows), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="gstr1-${filter.month}.csv"`,
        "Cache-Control": "private, no-store",
      },
    });
  }
  if (params.file === "gstr1-offline.zip") {
    // Text compresses well; the offline tool opens each CSV of the section it imports.
    const files = Object.fromEntries(
      Object.entries(gstr1OfflineFiles(rows)).map(([name, csv]) => [name, strToU8(csv)]),
    );
    return new Response(zipSync(files), {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="gstr1-${filter.month}.zip"`,
        "Cache-Control": "private, no-store",
      },
    });
  }
  if (params.file === "documents.zip") {
    // Each document's stored bytes, checked: one that fails its hash fails the export (a 500).
    const files: Record<string, Uint8Array> = {};
    for (const row of rows)
      files[`${row.number.replaceAll("/", "-")}.pdf`] = new Uint8Array(await invoicePdf(row));
    // PDFs are already compressed: store them as they are.
    const zip = zipSync(files, { level: 0 });
    return new Response(zip, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="invoices-${filter.month}.zip"`,
        "Cache-Control": "private, no-store",
      },
    });
  }
  return new Response("Not Found", { status: 404 });
}
