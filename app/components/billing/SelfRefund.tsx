import { Form, Link } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import { formatDate } from "~/lib/dates";
import type { SelfRefundOffer, SelfRefundRefusal } from "~/.server/billing/self-refund.server";
import { gstSplitText } from "~/lib/gst-split";
import { formatInr, formatMoney } from "~/lib/money";
import { newTicketUrl } from "~/lib/support";

export interface SelfRefundView {
  offer: SelfRefundOffer | null;
  /** Why there is no offer (null: the words of the policy itself). */
  refused?: SelfRefundRefusal | null;
  review: boolean;
  windowDays: number;
}

/** Why this subscription's first payment is not refunded from here, in the customer's words. */
function refusalWords(reason: SelfRefundRefusal, days: number): string {
  switch (reason) {
    case "refunded":
      return "This payment has been refunded already, in full or in part, so the rest cannot be refunded from here.";
    case "renewed":
      return `The ${days}-day refund covers a new subscription's first payment; this subscription has been renewed since.`;
    case "past-window":
      return `The ${days}-day refund covers a new subscription's first payment, asked for within ${days} days of paying; this subscription is past it.`;
    case "had-one":
      return `The ${days}-day refund is once per customer, and this account (or another on its email address) has had it already.`;
  }
}

/**
 * The customer's own refund of a first payment (issue 34, point 4): a link to what it does, then
 * one button that does it. Both are plain links and forms, so it works without JavaScript.
 * Outside the policy there is no button, and the words say why and where to go instead.
 */
export function SelfRefund({ refund }: { refund: SelfRefundView }) {
  const refunding = useFormPending({ intent: "request-refund" });
  const { offer } = refund;
  if (!offer)
    return (
      <p
        className="mt-8 border-t border-slate-800 pt-6 text-sm text-slate-300"
        data-testid="refund-policy"
      >
        {`${refusalWords(refund.refused ?? "past-window", refund.windowDays)} Charged twice or wrongly? `}
        <Link
          to={newTicketUrl({ category: "billing", subject: "A refund of a wrong charge" })}
          className="link"
        >
          Open a support ticket
        </Link>
        {" and we refund it in full. "}
        <Link to="/legal/refund" className="link">
          Refund policy
        </Link>
      </p>
    );
  const paid = formatMoney(offer.amountPaise, offer.currency);
  return (
    <section
      id="refund"
      aria-labelledby="refund-heading"
      className="mt-8 border-t border-slate-800 pt-6"
      data-testid="self-refund"
    >
      <h3 id="refund-heading" className="font-semibold text-white">
        Changed your mind?
      </h3>
      <p className="mt-1 text-sm text-slate-300">
        {`You paid ${paid} for ${offer.plan} on ${formatDate(offer.paidAt)}. Until ${formatDate(offer.until)} you can have it back in full.`}
      </p>
      {refund.review ? (
        <Form
          method="post"
          className="mt-3 rounded-lg border border-amber-400/40 bg-amber-400/10 p-4"
        >
          <ul
            className="list-inside list-disc space-y-1 text-sm text-amber-100"
            data-testid="refund-review"
          >
            <li>{`${paid} goes back to ${offer.method}; banks usually show it within 5 to 7 working days.`}</li>
            <li>
              {offer.tax
                ? `A GST credit note reverses the invoice: ${gstSplitText(offer.tax)} (${formatInr(offer.tax.totalPaise - offer.tax.taxablePaise)} of GST).`
                : "A credit note reverses your export invoice, in the same currency and at the same rate."}
            </li>
            <li>
              {offer.trialUntil
                ? `${offer.plan} ends now; your free trial goes on giving Pro until ${formatDate(offer.trialUntil)}, then your account moves to Free unless you choose a plan. Nothing more is charged.`
                : `${offer.plan} ends now and your account moves to Free (one device). Nothing more is charged.`}
            </li>
          </ul>
          <input type="hidden" name="intent" value="request-refund" />
          <input type="hidden" name="paymentId" value={offer.paymentId} />
          <input type="hidden" name="key" value={offer.key} />
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="submit" className="btn-primary" disabled={refunding}>
              {`Refund ${paid} and end Pro now`}
            </button>
            <Link to="/account/subscription" className="btn-secondary">
              Keep Pro
            </Link>
          </div>
        </Form>
      ) : (
        <Link to="/account/subscription?refund=review#refund" className="btn-secondary mt-3">
          Request a refund
        </Link>
      )}
    </section>
  );
}
