import { Form, Link } from "react-router";
import { useFormPending, usePendingForms } from "~/components/use-form-pending";
import { useRevealWhenShown } from "~/lib/reveal";
import type { RefundReview } from "~/.server/admin/refunds.server";
import type { FixBilling } from "~/.server/admin/fix-view.server";
import { AdminSection, AdminTable, HiddenFields, TD, TR } from "~/components/admin/AdminUi";
import { Field } from "~/components/forms";
import { formatDate, formatDateTime } from "~/lib/dates";
import { currencySymbol, formatInr, formatMoney } from "~/lib/money";
import { AFTER_REFUND, AFTER_REFUND_LABELS, type SectionProps } from "./shared";

function refundable(payment: FixBilling["payments"][number]): boolean {
  return (
    payment.status === "captured" ||
    (payment.status === "refunded" && payment.refundedPaise < payment.amountPaise)
  );
}

/**
 * Step two of a refund: what will happen, in money and documents, before anything is sent. The
 * form carries the request's key, so submitting it twice refunds once.
 */
function RefundConfirmation({
  review,
  reason,
  customerId,
  email,
}: {
  review: RefundReview;
  reason: string;
  customerId: string;
  email: string;
}) {
  const refunding = useFormPending({ intent: "refund", fields: { paymentId: review.paymentId } });
  const whole = review.amountPaise === review.refundablePaise;
  const money = (amount: number) => formatMoney(amount, review.currency);
  const panel = useRevealWhenShown<HTMLDivElement>(review.key);
  return (
    <div
      ref={panel}
      role="region"
      aria-labelledby="refund-confirm"
      className="mb-6 rounded-lg border border-amber-500/50 bg-amber-950/30 p-4"
      data-testid="refund-confirmation"
    >
      <h3 id="refund-confirm" className="font-semibold text-white">
        {`Refund ${money(review.amountPaise)}?`}
      </h3>
      <ul className="mt-2 list-inside list-disc text-sm text-slate-200">
        <li>
          {`${whole ? "Everything left" : "Part"} of payment ${review.paymentId}: ${money(review.paidPaise)} paid on ${formatDate(review.paidAt)}, ${money(review.refundablePaise)} refundable.`}
        </li>
        <li>
          {review.creditNote && review.currency !== "INR"
            ? `An export credit note worth ${formatInr(review.creditNote.totalPaise)} (at its invoice's rate, no GST) is issued against invoice ${review.creditNote.against} and mailed to the customer.`
            : review.creditNote
              ? `A GST credit note for ${formatInr(review.creditNote.totalPaise)} (taxable ${formatInr(review.creditNote.taxablePaise)}, GST ${formatInr(review.creditNote.taxPaise)}) is issued against invoice ${review.creditNote.against} and mailed to the customer.`
              : "This payment has no tax invoice, so no credit note is issued."}
        </li>
        <li>{`Reason: ${reason}`}</li>
        {review.subscription?.afterRefund === "ends" ? (
          <li>
            {`This refund leaves the current period unpaid: subscription ${review.subscription.id} ends at once and the customer moves to Free, as the refund policy says. They get one mail.`}
          </li>
        ) : null}
      </ul>
      <Form method="post" className="mt-3">
        <HiddenFields
          values={{
            intent: "refund",
            userId: customerId,
            paymentId: review.paymentId,
            amountPaise: String(review.amountPaise),
            reason,
            key: review.key,
          }}
        />
        {review.subscription?.afterRefund === "choose" ? (
          <fieldset className="mb-3">
            <legend className="text-sm font-medium text-white">
              {`After the refund, subscription ${review.subscription.id}…`}
            </legend>
            <div className="mt-2 space-y-1">
              {AFTER_REFUND.map((choice) => (
                <label key={choice} className="flex items-start gap-2 text-sm text-slate-200">
                  <input
                    type="radio"
                    name="afterRefund"
                    value={choice}
                    required
                    className="mt-1 accent-green-500"
                  />
                  {AFTER_REFUND_LABELS[choice]}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-primary" disabled={refunding}>
            {`Refund ${money(review.amountPaise)}`}
          </button>
          <Link to={`?email=${encodeURIComponent(email)}#payments`} className="link">
            Don’t refund
          </Link>
        </div>
      </Form>
    </div>
  );
}

export function PaymentsSection({
  payments,
  review,
  email,
  customerId,
  errors,
}: SectionProps & {
  payments: FixBilling["payments"];
  review: { review: RefundReview; reason: string } | null;
  email: string;
}) {
  const pending = usePendingForms();
  return (
    <AdminSection id="payments" title="Payments">
      {review ? (
        <RefundConfirmation
          review={review.review}
          reason={review.reason}
          customerId={customerId}
          email={email}
        />
      ) : null}
      {payments.length === 0 ? (
        <p className="text-slate-300">No payments.</p>
      ) : (
        <AdminTable
          caption="Payments of this customer"
          columns={["When", "Payment", "Amount", "Refunded", "Status", "Method", ""]}
        >
          {payments.map((payment) => (
            <tr key={payment.id} className={TR}>
              <td className={TD}>{formatDateTime(payment.paidAt)}</td>
              <td className={`${TD} font-mono text-xs`}>{payment.id}</td>
              <td className={`${TD} whitespace-nowrap`}>
                {formatMoney(payment.amountPaise, payment.currency)}
              </td>
              <td className={`${TD} whitespace-nowrap`}>
                {formatMoney(payment.refundedPaise, payment.currency)}
              </td>
              <td className={TD}>{payment.status}</td>
              <td className={TD}>{payment.method}</td>
              <td className={TD}>
                {refundable(payment) ? (
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <HiddenFields
                      values={{
                        intent: "refund-review",
                        userId: customerId,
                        paymentId: payment.id,
                      }}
                    />
                    <Field
                      label={`Amount in ${currencySymbol(payment.currency)} (empty: all left)`}
                      name="amount"
                      className="w-40"
                      inputMode="decimal"
                      errors={errors.amount}
                    />
                    <Field label="Reason" name="reason" className="w-48" errors={errors.reason} />
                    <button
                      type="submit"
                      className="btn-secondary mb-6"
                      disabled={pending({
                        intent: "refund-review",
                        fields: { paymentId: payment.id },
                      })}
                      aria-label={`Review a refund of ${payment.id}`}
                    >
                      Review refund
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </AdminSection>
  );
}
