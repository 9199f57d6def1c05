import type { TeamSeatTotals } from "~/.server/teams/admin.server";
import { AdminSection } from "~/components/admin/AdminUi";
import { formatInr } from "~/lib/money";

/** Teams' seats now (issue 37, point 6): sold, held, and the recurring revenue they bring. */
export function TeamSeatsSection({ seats }: { seats: TeamSeatTotals }) {
  return (
    <AdminSection
      id="team-seats"
      title="Team seats"
      lead="Now, not over the period: seats that teams' subscriptions give, how many members hold one, and the teams' recurring revenue a month (seats × the seat's price, yearly ones ÷ 12, not counting subscriptions ending with their period)."
    >
      <dl className="grid gap-4 sm:grid-cols-4" data-testid="team-seats-totals">
        {[
          ["Teams with seats", String(seats.teams)],
          ["Seats sold", String(seats.seatsSold)],
          ["Seats held", String(seats.seatsHeld)],
          ["MRR from teams", formatInr(seats.mrrPaise)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-800 bg-slate-900 p-4">
            <dt className="text-sm text-slate-300">{label}</dt>
            <dd className="mt-1 text-xl font-semibold text-white">{value}</dd>
          </div>
        ))}
      </dl>
    </AdminSection>
  );
}
