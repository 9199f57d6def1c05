import { Link } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { invoicesOfUser } from "~/.server/invoices/queries.server";
import { PageHeader } from "~/components/PageHeader";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import { pageMeta } from "~/lib/meta";
import { newTicketUrl } from "~/lib/support";
import type { Route } from "./+types/invoices";
import { ScrollBox } from "~/components/ScrollBox";

export const meta: Route.MetaFunction = () =>
  pageMeta("Invoices", "Your GST tax invoices and credit notes.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const rows = await invoicesOfUser(user.id);
  const credited = new Set(
    rows.filter((row) => row.kind === "credit_note").map((row) => row.originalInvoiceId),
  );
  return {
    documents: rows.map((row) => {
      const { document } = row;
      return {
        id: row.id,
        kind: row.kind,
        number: row.number,
        issuedAt: row.issuedAt.toISOString(),
        description: document.lines[0]?.description.split(": ").at(-1) ?? "",
        totalPaise: row.totalPaise,
        status:
          row.kind === "credit_note"
            ? `Credit against ${document.original?.number ?? "an invoice"}`
            : credited.has(row.id)
              ? "Paid, credit note issued"
              : "Paid",
      };
    }),
  };
}

export default function InvoicesPage({ loaderData }: Route.ComponentProps) {
  const { documents } = loaderData;
  return (
    <div>
      <PageHeader
        title="Invoices"
        lead="A GST tax invoice for every payment, and a credit note for every refund. Download them as PDF."
      />
      {documents.length === 0 ? (
        <p className="text-slate-300">
          No invoices yet: they appear here with your first payment.{" "}
          <Link to="/pricing" className="link">
            See plans
          </Link>
        </p>
      ) : (
        <ScrollBox
          label="Your invoices and credit notes"
          className="rounded-xl border border-slate-800 bg-slate-900"
        >
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Your invoices and credit notes</caption>
            <thead>
              <tr className="border-b border-slate-800 text-slate-300">
                {["Number", "Date", "For", "Amount", "Status", "PDF"].map((label) => (
                  <th key={label} scope="col" className="px-4 py-3 font-medium">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {documents.map((document) => (
                <tr key={document.id} className="border-b border-slate-800 last:border-0">
                  <th scope="row" className="px-4 py-3 font-mono text-slate-100">
                    {document.number}
                    {document.kind === "credit_note" ? (
                      <span className="ml-2 font-sans text-xs text-slate-300">Credit note</span>
                    ) : null}
                  </th>
                  <td className="px-4 py-3 text-slate-200">{formatDate(document.issuedAt)}</td>
                  <td className="px-4 py-3 text-slate-200">{document.description}</td>
                  <td className="px-4 py-3 text-slate-100 tabular-nums">
                    {`${document.kind === "credit_note" ? "−" : ""}${formatInr(document.totalPaise)}`}
                  </td>
                  <td className="px-4 py-3 text-slate-200">{document.status}</td>
                  <td className="px-4 py-3">
                    <a
                      href={`/invoices/${document.id}.pdf`}
                      className="link"
                      download
                      aria-label={`Download ${document.number} as PDF`}
                    >
                      Download
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <p className="mt-6 text-sm text-slate-300">
        Need your GSTIN on future invoices? Add it under{" "}
        <Link to="/billing" className="link">
          Billing
        </Link>
        . To correct one already issued,{" "}
        <Link
          to={newTicketUrl({ category: "billing", subject: "Please correct an invoice" })}
          className="link"
        >
          open a support ticket
        </Link>
        : we issue a credit note and a corrected invoice.
      </p>
    </div>
  );
}
