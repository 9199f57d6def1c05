import { data, Link } from "react-router";
import { requireAdmin } from "~/.server/auth/session";
import { teamForOperator } from "~/.server/teams/admin.server";
import { AdminPage, AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { formatDate, formatDateTime } from "~/lib/dates";
import { stateByCode } from "~/lib/gst";
import { pageMeta } from "~/lib/meta";
import { formatInr } from "~/lib/money";
import { planLabel } from "~/lib/plans";
import type { Route } from "./+types/team";

export const meta: Route.MetaFunction = ({ data: page }) =>
  pageMeta(page ? page.team.name : "Team", "A team's people, seats, payments and invoices.");

/**
 * /admin/teams/:id (issue 37, point 6): everything about one team's seats for the operator: its
 * billing identity, its people with their seats, every subscription, every payment (failed ones
 * too) and every tax document. Each person links to their customer page.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  requireAdmin(context);
  const team = await teamForOperator(params.id);
  if (!team) throw data("Not found", { status: 404 });
  return {
    team: {
      id: team.id,
      name: team.name,
      createdAt: team.createdAt.toISOString(),
      gstin: team.profile?.gstin ?? null,
      address: team.profile
        ? [
            team.profile.addressLine1,
            team.profile.addressLine2,
            `${team.profile.city} ${team.profile.postalCode}`,
            stateByCode(team.profile.stateCode)?.name ?? team.profile.stateCode,
          ]
            .filter(Boolean)
            .join(", ")
        : null,
    },
    members: team.members.map((person) => ({
      ...person,
      joinedAt: person.joinedAt.toISOString(),
    })),
    subscriptions: team.subscriptions.map((row) => ({
      id: row.providerSubscriptionId,
      plan: planLabel(row.planId),
      seats: row.seats,
      status: row.status,
      ending: row.cancelAtCycleEnd,
      replaces: row.replacesSubscriptionId !== null,
      currentEnd: row.currentEnd?.toISOString() ?? null,
      chargeAt: row.chargeAt?.toISOString() ?? null,
    })),
    payments: team.payments.map((row) => ({
      id: row.providerPaymentId,
      amountPaise: row.amountPaise,
      refundedPaise: row.amountRefundedPaise,
      status: row.status,
      method: row.method,
      error: row.errorDescription,
      paidAt: row.paidAt.toISOString(),
    })),
    invoices: team.invoices.map((row) => ({
      id: row.id,
      number: row.number,
      kind: row.kind,
      issuedAt: row.issuedAt.toISOString(),
      totalPaise: row.totalPaise,
    })),
  };
}

export default function AdminTeamPage({ loaderData }: Route.ComponentProps) {
  const { team, members, subscriptions, payments, invoices } = loaderData;
  return (
    <AdminPage>
      <p className="text-sm">
        <Link className="link" to="/admin/teams">
          All teams
        </Link>
      </p>
      <PageHeader
        title={team.name}
        lead={`${team.gstin ? `GSTIN ${team.gstin}` : "No GSTIN"}${team.address ? `; ${team.address}` : ""}. Created ${formatDate(team.createdAt)}.`}
      />
      <AdminSection id="people" title="People">
        <AdminTable
          caption="The team's people"
          columns={["Person", "Role", "Seat", { label: "Devices", alignRight: true }, "Joined"]}
        >
          {members.map((person) => (
            <tr key={person.userId} className={TR}>
              <th scope="row" className={`${TD} break-all font-normal`}>
                <Link className="link" to={`/admin/customers/${person.userId}`}>
                  {person.email}
                </Link>
              </th>
              <td className={TD}>{person.role}</td>
              <td className={TD}>{person.seat ? "Pro seat" : "—"}</td>
              <td className={TD_NUM}>{person.devices}</td>
              <td className={TD}>{formatDate(person.joinedAt)}</td>
            </tr>
          ))}
        </AdminTable>
      </AdminSection>
      <AdminSection id="subscriptions" title="Subscriptions">
        {subscriptions.length === 0 ? (
          <p className="text-sm text-slate-300">The team has bought no seats.</p>
        ) : (
          <AdminTable
            caption="The team's subscriptions"
            columns={[
              "Razorpay id",
              "Plan",
              { label: "Seats", alignRight: true },
              "Status",
              "Period ends",
              "Next charge",
            ]}
          >
            {subscriptions.map((row) => (
              <tr key={row.id} className={TR}>
                <th scope="row" className={`${TD} font-mono font-normal`}>
                  {row.id}
                </th>
                <td className={TD}>{row.plan}</td>
                <td className={TD_NUM}>{row.seats}</td>
                <td className={TD}>
                  {`${row.status}${row.ending ? ", ends with its period" : ""}${row.replaces ? ", a change of seats" : ""}`}
                </td>
                <td className={TD}>{row.currentEnd ? formatDate(row.currentEnd) : "—"}</td>
                <td className={TD}>{row.chargeAt ? formatDate(row.chargeAt) : "—"}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
      <AdminSection
        id="payments"
        title="Payments"
        lead="Every payment Razorpay reported for the team's seats, failed ones too. Refund one from Razorpay's Dashboard: its webhook records the refund and issues the credit note."
      >
        {payments.length === 0 ? (
          <p className="text-sm text-slate-300">No payments yet.</p>
        ) : (
          <AdminTable
            caption="The team's payments"
            columns={[
              "Razorpay id",
              { label: "Amount", alignRight: true },
              { label: "Refunded", alignRight: true },
              "Status",
              "Method",
              "When",
            ]}
          >
            {payments.map((row) => (
              <tr key={row.id} className={TR}>
                <th scope="row" className={`${TD} font-mono font-normal`}>
                  {row.id}
                </th>
                <td className={TD_NUM}>{formatInr(row.amountPaise)}</td>
                <td className={TD_NUM}>{row.refundedPaise ? formatInr(row.refundedPaise) : "—"}</td>
                <td className={TD}>{row.error ? `${row.status}: ${row.error}` : row.status}</td>
                <td className={TD}>{row.method}</td>
                <td className={TD}>{formatDateTime(row.paidAt)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
      <AdminSection id="invoices" title="Invoices and credit notes">
        {invoices.length === 0 ? (
          <p className="text-sm text-slate-300">No documents yet.</p>
        ) : (
          <AdminTable
            caption="The team's documents"
            columns={["Number", "Kind", "Issued", { label: "Total", alignRight: true }, ""]}
          >
            {invoices.map((row) => (
              <tr key={row.id} className={TR}>
                <th scope="row" className={`${TD} font-normal`}>
                  {row.number}
                </th>
                <td className={TD}>{row.kind === "invoice" ? "Tax invoice" : "Credit note"}</td>
                <td className={TD}>{formatDate(row.issuedAt)}</td>
                <td className={TD_NUM}>{formatInr(row.totalPaise)}</td>
                <td className={TD}>
                  <a className="link" href={`/invoices/${row.id}.pdf`}>
                    PDF<span className="sr-only">{` of ${row.number}`}</span>
                  </a>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </AdminPage>
  );
}
