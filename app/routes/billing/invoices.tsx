import { Link } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { refundsOfCustomer } from "~/.server/billing/refunds.server";
import { personBuyer } from "~/.server/billing/buyer";
import { invoicesOf } from "~/.server/invoices/queries.server";
import { PageHeader } from "~/components/PageHeader";
import { formatDate } from "~/lib/dates";
import { type Currency, formatMoney, formatPrice } from "~/lib/money";
import { pageMeta } from "~/lib/meta";
import { newTicketUrl } from "~/lib/support";
import type { Route } from "./+types/invoices";
import { ScrollBox } from "~/components/ScrollBox";

export const meta: Route.MetaFunction = () =>
  pageMeta("Invoices", "Your GST tax invoices and credit notes.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const [rows, refunds] = await Promise.all([
    invoicesOf(personBuyer(user.id)),
    refundsOfCustomer(user.id),
  ]);
  const credited = new Set(
    rows.filter((row) => row.kind === "credit_note").map((row) => row.originalInvoiceId),
  );
  return {
    refunds: refunds.map((refund) => ({ ...refund, at: refund.at.toISOString() })),
    documents: rows.map((row) => {
      const { document } = row;
      return {
        id: row.id,
        kind: row.kind,
        number: row.number,
        issuedAt: row.issuedAt.toISOString(),
        description: document.lines[0]?.description.split(": ").at(-1) ?? "",
        // An export: what was paid in its currency (its rupee value is on the document).
        total:
          row.currencyAmount === null
            ? { amount: row.totalPaise, currency: "INR" as Currency }
            : { amount: row.currencyAmount, currency: row.currency },
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
  const { documents, refunds } = loaderData;
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
                    {`${document.kind === "credit_note" ? "−" : ""}${formatPrice(document.total)}`}
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
      {refunds.length > 0 ? <Refunds refunds={refunds} /> : null}
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

const REFUND_STATUS = {
  requested: "Requested: being made",
  pending: "On its way to your bank",
  processed: "Refunded",
  failed: "Failed: we will contact you",
} as const;

/** Each refund with where it stands and the references to trace it (issue 34, point 4). */
function Refunds({
  refunds,
}: {
  refunds: {
    paymentId: string;
    amountPaise: number;
    currency: Currency;
    status: keyof typeof REFUND_STATUS;
    refundId: string | null;
    arn: string | null;
    at: string;
  }[];
}) {
  return (
    <section aria-labelledby="refunds-heading" className="mt-8">
      <h2 id="refunds-heading" className="text-lg font-semibold text-white">
        Refunds
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        Banks usually show a refund within 5 to 7 working days of it being made. To trace one, give
        your bank its bank reference (ARN).
      </p>
      <ScrollBox
        label="Your refunds"
        className="mt-3 rounded-xl border border-slate-800 bg-slate-900"
      >
        <table className="w-full text-left text-sm" data-testid="refunds">
          <caption className="sr-only">Your refunds</caption>
          <thead>
            <tr className="border-b border-slate-800 text-slate-300">
              {[
                "Date",
                "Amount",
                "Status",
                "Refund reference",
                "Bank reference (ARN)",
                "Payment",
              ].map((label) => (
                <th key={label} scope="col" className="px-4 py-3 font-medium">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {refunds.map((refund) => (
              <tr
                key={refund.refundId ?? `${refund.paymentId}-${refund.at}`}
                className="border-b border-slate-800 last:border-0"
              >
                <td className="px-4 py-3 text-slate-200">{formatDate(refund.at)}</td>
                <td className="px-4 py-3 text-slate-100 tabular-nums">
                  {formatMoney(refund.amountPaise, refund.currency)}
                </td>
                <td className="px-4 py-3 text-slate-200">{REFUND_STATUS[refund.status]}</td>
                <td className="px-4 py-3 font-mono text-slate-200">{refund.refundId ?? "—"}</td>
                <td className="px-4 py-3 font-mono text-slate-200">
                  {refund.arn ?? (refund.status === "processed" ? "Not given yet" : "—")}
                </td>
                <td className="px-4 py-3 font-mono text-slate-300">{refund.paymentId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </section>
  );
}
