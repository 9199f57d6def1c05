import { Link } from "react-router";
import { requireAdmin } from "~/.server/auth/session";
import { listDisputes } from "~/.server/disputes/evidence.server";
import { AdminPage, AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { disputePagePath } from "~/lib/admin-paths";
import { formatDateTime } from "~/lib/dates";
import { disputeStatusWords } from "~/lib/disputes";
import { pageMeta } from "~/lib/meta";
import { formatProviderMoney } from "~/lib/money";
import type { Route } from "./+types/disputes";

export const meta: Route.MetaFunction = () =>
  pageMeta("Disputes", "Chargebacks raised by customers' banks, with their deadlines.");

/** /admin/disputes (issue 59, point 4): every dispute, newest first, decided ones too. */
export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const rows = await listDisputes();
  return {
    disputes: rows.map((row) => ({
      ...row,
      respondBy: row.respondBy?.toISOString() ?? null,
      openedAt: row.openedAt.toISOString(),
    })),
  };
}

export default function AdminDisputesPage({ loaderData }: Route.ComponentProps) {
  const { disputes } = loaderData;
  return (
    <AdminPage>
      <PageHeader
        title="Disputes"
        lead="Chargebacks raised by customers' banks. Answer each open one with evidence at Razorpay before its deadline."
      />
      <AdminSection id="disputes" title="All disputes">
        {disputes.length === 0 ? (
          <p className="text-sm text-slate-300">No payment has been disputed.</p>
        ) : (
          <AdminTable
            caption="Disputes, newest first"
            columns={["Dispute", "Customer", "Amount", "Status", "Evidence due", "Opened"]}
          >
            {disputes.map((row) => (
              <tr key={row.disputeId} className={TR}>
                <td className={TD}>
                  <Link className="link font-mono text-xs" to={disputePagePath(row.disputeId)}>
                    {row.disputeId}
                  </Link>
                </td>
                <td className={`${TD} break-all`}>{row.email ?? "—"}</td>
                <td className={TD_NUM}>{formatProviderMoney(row.amountMinor, row.currency)}</td>
                <td className={TD}>{disputeStatusWords(row.status)}</td>
                <td className={TD}>{row.respondBy ? formatDateTime(row.respondBy) : "—"}</td>
                <td className={TD}>{formatDateTime(row.openedAt)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </AdminPage>
  );
}
