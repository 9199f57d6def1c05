import { referralsFor } from "./referrals.server";
import { istMonth } from "~/lib/india-time";
import { type Database, db as defaultDb } from "../db";
import { env } from "../env";
import { funnelFor } from "./funnel.server";
import { healthFor } from "./health.server";
import type { Period } from "./period";
import { revenueMonths } from "./revenue.server";
import { retentionCutoff } from "./rollup.server";
import { trafficFor } from "./traffic.server";
import { trialFunnelFor } from "./trial-funnel.server";

/** Every section of /admin/analytics for one period, read in parallel. */
export async function cockpitFor(
  period: Period,
  now: Date = new Date(),
  database: Database = defaultDb(),
) {
  const keptSince = retentionCutoff(now, env().ANALYTICS_RETENTION_MONTHS);
  const [funnel, trials, referrals, revenue, traffic, health] = await Promise.all([
    funnelFor(period, database),
    trialFunnelFor(period, now, database),
    referralsFor(period, database),
    revenueMonths(
      istMonth(new Date(Math.min(period.to.getTime() - 1, now.getTime()))),
      now,
      database,
    ),
    trafficFor(period, database),
    healthFor(period, database),
  ]);
  return {
    funnel,
    referrals,
    trials,
    revenue,
    traffic,
    health,
    /** The funnel reads raw events: before this moment they were pruned (only daily sums remain). */
    rawEventsSince: period.from < keptSince ? keptSince : null,
  };
}

export type Cockpit = Awaited<ReturnType<typeof cockpitFor>>;
