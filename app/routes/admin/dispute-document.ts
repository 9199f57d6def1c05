import { data } from "react-router";
import { requireAdmin } from "~/.server/auth/session";
import { disputeEvidence } from "~/.server/disputes/evidence.server";
import { invoicePdf } from "~/.server/invoices/stored-pdf.server";
import type { Route } from "./+types/dispute-document";

/**
 * /admin/disputes/:id/invoice.pdf and /credit-note.pdf: the payment's invoice and the lost
 * dispute's credit note, exactly as issued (their stored bytes, checked), for the evidence.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  requireAdmin(context);
  if (params.file !== "invoice.pdf" && params.file !== "credit-note.pdf")
    throw data("Not found", { status: 404 });
  const found = await disputeEvidence(params.id);
  const document = params.file === "invoice.pdf" ? found?.invoice : found?.creditNote;
  if (!document) throw data("Not found", { status: 404 });
  const pdf = await invoicePdf(document);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${document.number.replace(/[^\w.-]/g, "_")}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
