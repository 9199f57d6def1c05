import { renderInvoicePdf } from "~/.server/invoices/pdf.server";
import { sampleInvoice } from "~/.server/invoices/sample.server";

/** /legal/sample-invoice.pdf: a specimen tax invoice (payment providers ask for one). */
export async function loader() {
  const pdf = await renderInvoicePdf(sampleInvoice());
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": 'inline; filename="sample-invoice.pdf"',
      "Cache-Control": "public, max-age=3600",
    },
  });
}
