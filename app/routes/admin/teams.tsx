import { Form, Link } from "react-router";
import { requireAdmin } from "~/.server/auth/session";
import { listTeams } from "~/.server/teams/admin.server";
import { AdminPage, AdminSection, AdminTable, TD, TD_NUM } from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import { stateByCode } from "~/lib/gst";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/teams";

export const meta: Route.MetaFunction = () =>
  pageMeta("Teams", "Every team, its GSTIN, its owners and its people.");

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const teams = await listTeams(q);
  return {
    q,
    teams: teams.map((team) => ({
      ...team,
      state: team.stateCode ? (stateByCode(team.stateCode)?.name ?? team.stateCode) : null,
      createdAt: team.createdAt.toISOString(),
    })),
  };
}

export default function AdminTeamsPage({ loaderData }: Route.ComponentProps) {
  const { q, teams } = loaderData;
  return (
    <AdminPage>
      <PageHeader
        title="Teams"
        lead="Companies' teams: their billing identity, owners, people, invitations waiting, seats held of those bought, and what they were invoiced (less credit notes)."
      />
      <Form method="get" role="search" className="flex max-w-xl items-end gap-3">
        <div className="flex-1">
          <label htmlFor="team-search" className="block text-sm font-medium text-slate-200">
            Name or GSTIN
          </label>
          <input
            id="team-search"
            name="q"
            defaultValue={q}
            className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100"
          />
        </div>
        <button type="submit" className="btn-secondary">
          Search
        </button>
      </Form>
      <AdminSection id="teams" title={q ? `Teams matching “${q}”` : "All teams"}>
        {teams.length === 0 ? (
          <p className="text-sm text-slate-300">{q ? "No team matches." : "No teams yet."}</p>
        ) : (
          <AdminTable
            caption="Teams"
            columns={[
              "Team",
              "GSTIN",
              "State",
              "Owners",
              { label: "People", alignRight: true },
              { label: "Invited", alignRight: true },
              { label: "Seats held", alignRight: true },
              { label: "Invoiced", alignRight: true },
              "Created",
            ]}
          >
            {teams.map((team) => (
              <tr key={team.id} className="border-b border-slate-800/60">
                <th scope="row" className={`${TD} font-normal`}>
                  <Link className="link" to={`/admin/teams/${team.id}`}>
                    {team.name}
                  </Link>
                </th>
                <td className={`${TD} font-mono`}>{team.gstin ?? "—"}</td>
                <td className={TD}>{team.state ?? "—"}</td>
                <td className={`${TD} break-all`}>{team.owners.join(", ") || "—"}</td>
                <td className={TD_NUM}>{team.members}</td>
                <td className={TD_NUM}>{team.pendingInvitations}</td>
                <td className={TD_NUM}>
                  {team.seatsBought > 0 ? `${team.seatsHeld} of ${team.seatsBought}` : "—"}
                </td>
                <td className={TD_NUM}>{formatInr(team.invoicedPaise)}</td>
                <td className={TD}>{formatDate(team.createdAt)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </AdminPage>
  );
}
