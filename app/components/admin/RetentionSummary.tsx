/**
 * The cancellation flow's numbers (issue 59, point 1), on the cockpit and /admin/retention: why
 * people leave, offers shown, taken and declined, and the customers saved.
 */
import { Link } from "react-router";
import type { RetentionStats } from "~/.server/retention/stats.server";
import { AdminSection, AdminTable, Stat, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { CANCEL_REASON_LABELS } from "~/lib/cancel-flow";
import { formatPrice } from "~/lib/money";

export function RetentionSummary({
  stats,
  withReasons = true,
  settingsLink = false,
}: {
  stats: RetentionStats;
  withReasons?: boolean;
  settingsLink?: boolean;
}) {
  const mrr = stats.mrrSaved.length ? stats.mrrSaved.map(formatPrice).join(" + ") : "₹0";
  return (
    <AdminSection id="retention" title={`Cancellations, last ${stats.windowDays} days`}>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5" data-testid="retention-stats">
        <Stat label="Opened the cancel step" value={stats.opened} />
        <Stat label="Offers shown" value={stats.shown} />
        <Stat label="Offers taken" value={stats.taken} />
        <Stat label="Offers declined" value={stats.declined} hint="Cancelled with an offer shown" />
        <Stat label="Cancelled, no offer applied" value={stats.cancelledWithoutOffer} />
        <Stat
          label="Saved 90+ days ago, still paying"
          value={stats.stillPaying}
          display={`${stats.stillPaying} of ${stats.savedLongAgo}`}
        />
        <Stat
          label="MRR saved"
          value={0}
          display={mrr}
          hint="Saved customers who pay today, at list prices"
        />
      </dl>
      {withReasons ? (
        stats.reasons.length === 0 ? (
          <p className="mt-4 text-slate-300">No reason given yet.</p>
        ) : (
          <div className="mt-4">
            <AdminTable
              caption="Reasons given"
              columns={["Reason", { label: "Times", alignRight: true }]}
            >
              {stats.reasons.map((row) => (
                <tr key={row.reason} className={TR}>
                  <td className={TD}>{CANCEL_REASON_LABELS[row.reason]}</td>
                  <td className={TD_NUM}>{row.count}</td>
                </tr>
              ))}
            </AdminTable>
          </div>
        )
      ) : null}
      {settingsLink ? (
        <p className="mt-4 text-sm">
          <Link to="/admin/retention" className="link">
            Reasons, and the offer each plan shows
          </Link>
        </p>
      ) : null}
    </AdminSection>
  );
}
