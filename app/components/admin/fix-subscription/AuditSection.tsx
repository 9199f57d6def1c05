import type { FixBilling } from "~/.server/admin/fix-view.server";
import { AdminSection, AdminTable, TD, TR } from "~/components/admin/AdminUi";
import { formatDateTime } from "~/lib/dates";

export function AuditSection({ audit }: { audit: FixBilling["audit"] }) {
  return (
    <AdminSection
      id="audit"
      title="Audit log"
      lead="Every admin action on this customer’s billing."
    >
      {audit.length === 0 ? (
        <p className="text-slate-300">Nothing yet.</p>
      ) : (
        <AdminTable
          caption="Admin actions on this customer"
          columns={["When", "Who", "Action", "Target", "Reason", "Before", "After"]}
        >
          {audit.map((entry) => (
            <tr key={entry.id} className={TR} data-testid="audit-row">
              <td className={TD}>{formatDateTime(entry.at)}</td>
              <td className={TD}>{entry.actor}</td>
              <td className={TD}>{entry.action}</td>
              <td className={`${TD} font-mono text-xs`}>{entry.target}</td>
              <td className={TD}>{entry.reason}</td>
              <td className={`${TD} font-mono text-xs break-all`}>{entry.before}</td>
              <td className={`${TD} font-mono text-xs break-all`}>{entry.after}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </AdminSection>
  );
}
