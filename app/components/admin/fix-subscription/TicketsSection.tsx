import { Link } from "react-router";
import type { FixSubscriptionView } from "~/.server/admin/fix-view.server";
import { AdminSection, AdminTable, TD, TR } from "~/components/admin/AdminUi";
import { formatDateTime } from "~/lib/dates";
import { TEAM_STATUS_LABELS, TICKET_CATEGORY_LABELS, ticketRef } from "~/lib/support";

/** The customer's support tickets, newest activity first, each linked to the desk. */
export function TicketsSection({ tickets }: { tickets: FixSubscriptionView["tickets"] }) {
  return (
    <AdminSection id="tickets" title="Support tickets">
      {tickets.length === 0 ? (
        <p className="text-slate-300">This customer has not opened a ticket.</p>
      ) : (
        <AdminTable
          caption="Support tickets of this customer"
          columns={["Ticket", "About", "Status", "Opened", "Last message"]}
        >
          {tickets.map((ticket) => (
            <tr key={ticket.number} className={TR}>
              <td className={`${TD} min-w-56`}>
                <Link to={`/admin/support/${ticket.number}`} className="link break-words">
                  {ticketRef(ticket.number)} {ticket.subject}
                </Link>
              </td>
              <td className={TD}>{TICKET_CATEGORY_LABELS[ticket.category]}</td>
              <td className={TD}>{TEAM_STATUS_LABELS[ticket.status]}</td>
              <td className={`${TD} whitespace-nowrap`}>{formatDateTime(ticket.createdAt)}</td>
              <td className={`${TD} whitespace-nowrap`}>{formatDateTime(ticket.lastMessageAt)}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </AdminSection>
  );
}
