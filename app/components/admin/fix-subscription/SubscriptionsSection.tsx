import { Form } from "react-router";
import { STATUS_RULES, type SubscriptionStatus } from "~/lib/subscription-state";
import { useFormPending, usePendingForms } from "~/components/use-form-pending";
import type { FixBilling, FixSubscriptionView } from "~/.server/admin/fix-view.server";
import { AdminSection, HiddenFields } from "~/components/admin/AdminUi";
import { ComparisonTable } from "~/components/billing/ComparisonTable";
import { Field } from "~/components/forms";
import { formatDate } from "~/lib/dates";
import type { SectionProps } from "./shared";

const chargeable = (status: SubscriptionStatus) => STATUS_RULES[status].charges;
/** What Razorpay may still charge, so what the operator can cancel (MAY_CHARGE_STATUSES). */
const cancellable = (status: SubscriptionStatus) => STATUS_RULES[status].mayCharge;

export function SubscriptionsSection({
  subscriptions,
  comparisons,
  sandbox,
  customerId,
  errors,
}: SectionProps & {
  subscriptions: FixBilling["subscriptions"];
  comparisons: FixSubscriptionView["comparisons"];
  sandbox: boolean;
}) {
  const pending = usePendingForms();
  return (
    <AdminSection id="subscriptions" title="Subscriptions" lead="Our record beside Razorpay’s.">
      {subscriptions.length === 0 ? <p className="text-slate-300">No subscriptions.</p> : null}
      <ul className="space-y-6">
        {subscriptions.map((sub) => {
          const comparison = comparisons.find((entry) => entry.providerSubscriptionId === sub.id);
          const act = (intent: string, label: string) => (
            <Form method="post">
              <HiddenFields values={{ intent, userId: customerId, subscriptionId: sub.id }} />
              <button
                type="submit"
                className="btn-secondary"
                disabled={pending({ intent, fields: { subscriptionId: sub.id } })}
              >
                {label}
              </button>
            </Form>
          );
          return (
            <li key={sub.id} className="rounded-lg border border-slate-800 p-4">
              <p className="font-medium text-white">
                {`${sub.plan} · ${sub.status}`}{" "}
                <span className="font-mono text-xs text-slate-300">{sub.id}</span>
              </p>
              {sub.currentEnd ? (
                <p className="text-sm text-slate-300">{`Period ends ${formatDate(sub.currentEnd)}`}</p>
              ) : null}
              {sub.coupon ? (
                <p className="text-sm text-slate-300" data-testid="admin-subscription-coupon">
                  {`Coupon ${sub.coupon}`}
                </p>
              ) : null}
              {sub.cancelReason ? (
                <p className="text-sm text-slate-300">{`Cancel reason: ${sub.cancelReason}`}</p>
              ) : null}
              {comparison ? (
                <div className="mt-3">
                  <ComparisonTable comparison={comparison} />
                </div>
              ) : null}
              {cancellable(sub.rawStatus) ? (
                <CancelForm subscriptionId={sub.id} customerId={customerId} errors={errors} />
              ) : null}
              <div className="mt-3 flex flex-wrap gap-2">
                {act("resync", "Resync from provider")}
                {sandbox && chargeable(sub.rawStatus) ? (
                  <>
                    {act("sandbox-charge", "Charge now")}
                    {act("sandbox-fail", "Charge now and fail it")}
                  </>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </AdminSection>
  );
}

/**
 * Cancel now (Pro ends at once) or at the end of the paid period, with a reason for the audit log
 * and a box to tick: nothing happens on one careless click. Closed until opened, without scripts
 * too. Its fields have names of their own, so an error shows here and not under another form.
 */
function CancelForm({
  subscriptionId,
  customerId,
  errors,
}: SectionProps & { subscriptionId: string }) {
  const cancelling = useFormPending({ intent: "cancel", fields: { subscriptionId } });
  const submitted = Boolean(errors.cancelReason?.length || errors.cancelConfirm?.length);
  return (
    <details className="mt-3 rounded-lg border border-slate-800 p-3" open={submitted || undefined}>
      <summary className="cursor-pointer text-sm font-medium text-slate-100">
        Cancel this subscription…
      </summary>
      <Form method="post" className="mt-3 space-y-2">
        <HiddenFields values={{ intent: "cancel", userId: customerId, subscriptionId }} />
        <Field
          label="Reason (kept in the audit log, not sent to the customer)"
          name="cancelReason"
          className="max-w-md"
          errors={errors.cancelReason}
        />
        <div>
          <label className="flex items-start gap-2 text-sm text-slate-200">
            <input
              type="checkbox"
              name="cancelConfirm"
              value="yes"
              className="mt-1"
              aria-invalid={errors.cancelConfirm?.length ? true : undefined}
            />
            <span>
              I understand: “Cancel now” ends Pro at once and refunds nothing by itself (unless it
              is for a breach of the Terms, the refund policy promises the unused part: refund it
              under Payments); either way the customer is mailed and nothing more is charged.
            </span>
          </label>
          {errors.cancelConfirm?.length ? (
            <p className="mt-1 text-sm text-red-300">{errors.cancelConfirm[0]}</p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="submit"
            name="when"
            value="period-end"
            className="btn-secondary"
            disabled={cancelling}
          >
            Cancel at period end
          </button>
          <button
            type="submit"
            name="when"
            value="now"
            className="btn-secondary"
            disabled={cancelling}
          >
            Cancel now
          </button>
        </div>
      </Form>
    </details>
  );
}
