import { Form } from "react-router";
import type { FixBilling, FixSubscriptionView } from "~/.server/admin/fix-view.server";
import { AdminSection, HiddenFields } from "~/components/admin/AdminUi";
import { ComparisonTable } from "~/components/billing/ComparisonTable";
import { formatDate } from "~/lib/dates";
import type { SectionProps } from "./shared";

const CHARGEABLE = ["active", "pending", "halted", "authenticated"];

export function SubscriptionsSection({
  subscriptions,
  comparisons,
  sandbox,
  customerId,
  busy,
}: SectionProps & {
  subscriptions: FixBilling["subscriptions"];
  comparisons: FixSubscriptionView["comparisons"];
  sandbox: boolean;
}) {
  return (
    <AdminSection id="subscriptions" title="Subscriptions" lead="Our record beside Razorpay’s.">
      {subscriptions.length === 0 ? <p className="text-slate-300">No subscriptions.</p> : null}
      <ul className="space-y-6">
        {subscriptions.map((sub) => {
          const comparison = comparisons.find((entry) => entry.providerSubscriptionId === sub.id);
          const act = (intent: string, label: string) => (
            <Form method="post">
              <HiddenFields values={{ intent, userId: customerId, subscriptionId: sub.id }} />
              <button type="submit" className="btn-secondary" disabled={busy}>
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
              {sub.cancelReason ? (
                <p className="text-sm text-slate-300">{`Cancel reason: ${sub.cancelReason}`}</p>
              ) : null}
              {comparison ? (
                <div className="mt-3">
                  <ComparisonTable comparison={comparison} />
                </div>
              ) : null}
              <div className="mt-3 flex flex-wrap gap-2">
                {act("resync", "Resync from provider")}
                {sandbox && CHARGEABLE.includes(sub.rawStatus) ? (
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
