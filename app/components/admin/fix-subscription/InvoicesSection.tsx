import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import type { FixBilling } from "~/.server/admin/fix-view.server";
import { AdminSection, HiddenFields } from "~/components/admin/AdminUi";
import { Field } from "~/components/forms";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import type { SectionProps } from "./shared";

export function InvoicesSection({
  invoices,
  customerId,
  errors,
}: SectionProps & { invoices: FixBilling["invoices"] }) {
  const pending = usePendingForms();
  return (
    <AdminSection
      id="invoices"
      title="Invoices and credit notes"
      lead="Issued documents never change: correcting a GSTIN issues a credit note and a new invoice."
    >
      {invoices.length === 0 ? (
        <p className="text-slate-300">No invoices.</p>
      ) : (
        <ul className="divide-y divide-slate-800">
          {invoices.map((invoice) => (
            <li key={invoice.id} className="flex flex-wrap items-end justify-between gap-3 py-3">
              <p className="text-slate-100">
                <a className="link font-mono" href={`/invoices/${invoice.id}.pdf`}>
                  {invoice.number}
                </a>
                {` · ${invoice.kind === "credit_note" ? "credit note" : "invoice"} · ${formatDate(invoice.issuedAt)} · ${formatInr(invoice.totalPaise)} · GSTIN ${invoice.gstin ?? "none"}`}
              </p>
              {invoice.kind === "invoice" && !invoice.credited ? (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <HiddenFields
                    values={{ intent: "correct-gstin", userId: customerId, invoiceId: invoice.id }}
                  />
                  <Field
                    label="Correct GSTIN (empty: none)"
                    name="gstin"
                    className="w-56"
                    errors={errors.gstin}
                  />
                  <Field label="Reason" name="reason" className="w-48" errors={errors.reason} />
                  <button
                    type="submit"
                    className="btn-secondary mb-6"
                    disabled={pending({
                      intent: "correct-gstin",
                      fields: { invoiceId: invoice.id },
                    })}
                  >
                    Reissue
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </AdminSection>
  );
}
