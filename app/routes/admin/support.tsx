import { Form, Link } from "react-router";
import { requireAdmin } from "~/.server/auth/session";
import { deskCounts, deskTickets } from "~/.server/support/desk.server";
import {
  AdminPage,
  AdminSection,
  AdminTable,
  FilterSelect,
  Stat,
  TD,
  TR,
} from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { countOf } from "~/lib/format";
import { customerPageById } from "~/lib/admin-paths";
import { pageMeta } from "~/lib/meta";
import {
  ageOf,
  DESK_VIEWS,
  type DeskView,
  REPLY_WITHIN_HOURS,
  RESOLVE_WITHIN_DAYS,
  TEAM_STATUS_LABELS,
  TICKET_CATEGORY_LABELS,
  ticketRef,
} from "~/lib/support";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = () =>
  pageMeta("Support", "Customers' tickets: what waits for a reply, and what is overdue.");

const VIEW_LABELS: Record<DeskView, string> = {
  waiting: "Waiting for us",
  answered: "Waiting for the customer",
  closed: "Closed",
  all: "All",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const requested = params.get("view") ?? "waiting";
  const view: DeskView = (DESK_VIEWS as readonly string[]).includes(requested)
    ? (requested as DeskView)
    : "waiting";
  const mine = params.get("mine") === "1";
  const now = new Date();
  const [rows, counts] = await Promise.all([
    deskTickets(view, { now, mine: mine ? session.user.id : undefined }),
    deskCounts(now),
  ]);
  return {
    view,
    mine,
    counts,
    rows: rows.map((row) => ({
      ...row,
      age: ageOf(row.createdAt, now),
      lastMessageAt: row.lastMessageAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      replyDueAt: row.replyDueAt.toISOString(),
      resolveBy: row.resolveBy.toISOString(),
    })),
  };
}

export default function AdminSupportPage({ loaderData }: Route.ComponentProps) {
  const { view, mine, counts, rows } = loaderData;
  return (
    <AdminPage>
      <PageHeader
        title="Support"
        lead={`Customers' tickets. Each gets a first reply within ${REPLY_WITHIN_HOURS} hours and is resolved within ${RESOLVE_WITHIN_DAYS} days (Consumer Protection (E-Commerce) Rules, 2020).`}
      />
      <dl className="grid gap-4 sm:grid-cols-3">
        <Stat label="Waiting for us" value={counts.waiting} />
        <Stat
          label={`No reply after ${REPLY_WITHIN_HOURS} h`}
          value={counts.replyOverdue}
          hint={counts.replyOverdue > 0 ? "Overdue: reply to these first" : undefined}
        />
        <Stat label={`Open over ${RESOLVE_WITHIN_DAYS} days`} value={counts.resolutionOverdue} />
      </dl>
      <AdminSection id="tickets-heading" title={VIEW_LABELS[view]}>
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-4">
          <FilterSelect
            name="view"
            label="Show"
            defaultValue={view}
            options={DESK_VIEWS.map((each) => ({ value: each, label: VIEW_LABELS[each] }))}
          />
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input
              type="checkbox"
              name="mine"
              value="1"
              defaultChecked={mine}
              className="accent-green-500"
            />
            Assigned to me
          </label>
          <button type="submit" className="btn-secondary">
            Show
          </button>
        </Form>
        {rows.length === 0 ? (
          <p className="text-slate-300">No tickets here.</p>
        ) : (
          <AdminTable
            caption={`Tickets: ${VIEW_LABELS[view]} (${countOf(rows.length, "ticket")})`}
            columns={["Ticket", "Customer", "About", "Status", "Age", "Assigned to"]}
          >
            {rows.map((row) => (
              <tr key={row.number} className={TR}>
                <td className={`${TD} min-w-56`}>
                  <Link to={`/admin/support/${row.number}`} className="link break-words">
                    {ticketRef(row.number)} {row.subject}
                  </Link>
                  {row.replyOverdue ? (
                    <span className="mt-1 block text-xs font-medium text-amber-200">
                      Overdue: no reply after {REPLY_WITHIN_HOURS} h
                    </span>
                  ) : null}
                  {row.resolutionOverdue ? (
                    <span className="mt-1 block text-xs font-medium text-amber-200">
                      Overdue: open over {RESOLVE_WITHIN_DAYS} days
                    </span>
                  ) : null}
                </td>
                <td className={`${TD} break-all`}>
                  <Link to={customerPageById(row.customerId)} className="link">
                    {row.customerEmail}
                  </Link>
                </td>
                <td className={TD}>{TICKET_CATEGORY_LABELS[row.category]}</td>
                <td className={TD}>{TEAM_STATUS_LABELS[row.status]}</td>
                <td className={`${TD} whitespace-nowrap tabular-nums`}>{row.age}</td>
                <td className={TD}>{row.assigneeName ?? "Nobody"}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </AdminPage>
  );
}
