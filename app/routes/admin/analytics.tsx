import { Form, Link } from "react-router";
import { cockpitFor } from "~/.server/analytics/cockpit.server";
import { parsePeriod, PRESET_DAYS } from "~/.server/analytics/period";
import { requireAdmin } from "~/.server/auth/session";
import { env } from "~/.server/env";
import { LANES } from "~/.server/jobs/define";
import { AdminPage } from "~/components/admin/AdminUi";
import { FunnelSection } from "~/components/admin/analytics/FunnelSection";
import { HealthSection } from "~/components/admin/analytics/HealthSection";
import { RevenueSection } from "~/components/admin/analytics/RevenueSection";
import { TrialSection } from "~/components/admin/analytics/TrialSection";
import { ReferralSection } from "~/components/admin/analytics/ReferralSection";
import { TeamSeatsSection } from "~/components/admin/analytics/TeamSeatsSection";
import { teamSeatTotals } from "~/.server/teams/admin.server";
import { TrafficSection } from "~/components/admin/analytics/TrafficSection";
import { PageHeader } from "~/components/PageHeader";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/analytics";

export const meta: Route.MetaFunction = () =>
  pageMeta("Analytics", "The funnel, revenue and product health from our own data.");

/** /admin/analytics: the operator's morning read, from our own database only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const { period, problem } = parsePeriod(new URL(request.url).searchParams);
  const cockpit = await cockpitFor(period);
  return {
    problem,
    period: {
      fromDay: period.fromDay,
      toDay: period.toDay,
      preset: period.preset,
      days: period.days.length,
      presets: [...PRESET_DAYS],
    },
    funnel: cockpit.funnel,
    trials: cockpit.trials,
    trialDays: env().TRIAL_DAYS,
    referrals: cockpit.referrals,
    referralRewardDays: env().REFERRAL_REWARD_DAYS,
    teamSeats: await teamSeatTotals(),
    revenue: cockpit.revenue,
    traffic: cockpit.traffic,
    health: {
      ...cockpit.health,
      exceptions: cockpit.health.exceptions.map((row) => ({
        ...row,
        firstSeen: row.firstSeen.toISOString(),
        lastSeen: row.lastSeen.toISOString(),
      })),
    },
    rawEventsSince: cockpit.rawEventsSince?.toISOString() ?? null,
    laneLabels: Object.fromEntries(Object.entries(LANES).map(([lane, { label }]) => [lane, label])),
  };
}

const FIELD =
  "mt-1 block rounded-md border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-white focus:border-green-500 focus:outline-none focus:ring-2 focus:ring-green-500";

function PeriodPicker({
  period,
}: {
  period: { fromDay: string; toDay: string; preset: number | null; presets: number[] };
}) {
  return (
    <nav aria-label="Period" className="flex flex-wrap items-end gap-4">
      <ul className="flex flex-wrap gap-2">
        {period.presets.map((days) => (
          <li key={days}>
            <Link
              to={`?days=${days}`}
              aria-current={period.preset === days ? "page" : undefined}
              className={`inline-block rounded-md border px-3 py-2 text-sm ${
                period.preset === days
                  ? "border-green-400 bg-slate-800 text-white"
                  : "border-slate-700 text-slate-200 hover:border-slate-500"
              }`}
            >
              {`Last ${days} days`}
            </Link>
          </li>
        ))}
      </ul>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <label className="text-sm text-slate-300">
          From
          <input type="date" name="from" defaultValue={period.fromDay} required className={FIELD} />
        </label>
        <label className="text-sm text-slate-300">
          To
          <input type="date" name="to" defaultValue={period.toDay} required className={FIELD} />
        </label>
        <button type="submit" className="btn-primary">
          Show
        </button>
      </Form>
    </nav>
  );
}

export default function AnalyticsPage({ loaderData }: Route.ComponentProps) {
  const {
    period,
    problem,
    funnel,
    trials,
    trialDays,
    referrals,
    referralRewardDays,
    teamSeats,
    revenue,
    traffic,
    health,
    rawEventsSince,
    laneLabels,
  } = loaderData;
  return (
    <AdminPage>
      <PageHeader
        title="Analytics"
        lead={`${formatDate(period.fromDay, "long")} to ${formatDate(period.toDay, "long")} (${period.days} days, India time). Everything here comes from this site's own database.`}
      >
        <div className="mt-4">
          <PeriodPicker period={period} />
        </div>
        {problem ? (
          <p role="alert" className="mt-3 text-sm text-amber-200">
            {`${problem} Showing the last 30 days.`}
          </p>
        ) : null}
      </PageHeader>
      <FunnelSection funnel={funnel} rawEventsSince={rawEventsSince} />
      <TrialSection trials={trials} trialDays={trialDays} />
      <ReferralSection referrals={referrals} rewardDays={referralRewardDays} />
      <TeamSeatsSection seats={teamSeats} />
      <RevenueSection months={revenue} />
      <TrafficSection traffic={traffic} />
      <HealthSection health={health} laneLabels={laneLabels} />
    </AdminPage>
  );
}
