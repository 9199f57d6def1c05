import { sql } from "drizzle-orm";
import { addIstDays, istDayStart } from "~/lib/india-time";
import type { BillingCycle } from "~/lib/plans";
import { type Database, db as defaultDb } from "../db";
import { analyticsVisitorDays, payments, subscriptions } from "../db/schema";
import { type Period, unrolledRuns } from "./period";
import { rolledDaysBetween } from "./rollup.server";
import { cycleCase, STEP_BITS, visitorSteps } from "./visitor-steps.server";

/**
 * The purchase funnel by visitors (distinct analytics client ids) over a period: viewed pricing →
 * chose a plan → began checkout → paid. Each step counts the visitors of the step before who also
 * did this one in the period, so every conversion is a share of real people. "Paid" is read from
 * our payments (a captured subscription payment whose checkout carried the visitor's id), not from
 * the browser's `purchase` event, which a closed tab never sends.
 */
export const FUNNEL_STEPS = [
  { key: "viewed", label: "Viewed pricing" },
  { key: "chose", label: "Chose a plan" },
  { key: "began", label: "Began checkout" },
  { key: "paid", label: "Paid" },
] as const;

export type FunnelStepKey = (typeof FUNNEL_STEPS)[number]["key"];

export interface FunnelStep {
  key: FunnelStepKey;
  label: string;
  visitors: number;
  /** Share of the step before (null for the first step, or when the step before had nobody). */
  fromPrevious: number | null;
  /** Share of the first step. */
  overall: number | null;
}

export interface Funnel {
  steps: FunnelStep[];
  /** The later steps per billing cycle (the cycle of that step's own plan). */
  byCycle: { cycle: BillingCycle; chose: number; began: number; paid: number }[];
  /** Visitors who viewed pricing and created an account in the period. */
  signedUp: number;
  /** First payments of new subscriptions in the period, and how many of those the funnel sees. */
  payments: { total: number; attributed: number };
}

const CYCLES: BillingCycle[] = ["monthly", "yearly"];

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * The funnel of a period: a row per visitor with the bits of what they did (summed days from
 * `analytics_visitor_days`, the others from raw events), joined by hash to the visitors whose new
 * subscription's first payment fell in the period. Nothing joins event sets on row estimates the
 * planner cannot make for JSON fields. 5 million stored events: bench/results/analytics.md.
 */
export async function funnelFor(period: Period, database: Database = defaultDb()): Promise<Funnel> {
  const from = period.from.toISOString();
  const to = period.to.toISOString();
  const rolled = await rolledDaysBetween(period.fromDay, period.toDay, database);
  const live = unrolledRuns(period.days, rolled).map((run) =>
    visitorSteps(istDayStart(run[0]!)!, istDayStart(addIstDays(run.at(-1)!, 1))!),
  );
  const has = (bits: number) => sql.raw(`(steps & ${bits}) <> 0`);
  const result = await database.execute(sql`
    with visitor_day as (
      select client_id, steps from ${analyticsVisitorDays}
       where day between ${period.fromDay} and ${period.toDay}
      ${live.length > 0 ? sql`union all ${sql.join(live, sql` union all `)}` : sql``}
    ), visitor as (
      select client_id, bit_or(steps) as steps from visitor_day group by client_id
    ), first_paid as (
      -- A new subscription (not a plan switch) whose first payment fell in the period.
      select s.analytics_client_id as client_id, s.plan_id
        from ${subscriptions} s
        join (select subscription_id, min(paid_at) as first_at from ${payments}
               where status in ('captured', 'refunded') group by subscription_id) f
          on f.subscription_id = s.id
       where f.first_at >= ${from}::timestamptz and f.first_at < ${to}::timestamptz
         and s.replaces_subscription_id is null
    ), payer as (
      select client_id, count(*) as subscriptions,
             bool_or(${cycleCase(sql`plan_id`, "id")} = 'monthly') as paid_m,
             bool_or(${cycleCase(sql`plan_id`, "id")} = 'yearly') as paid_y
        from first_paid where client_id is not null group by client_id
    ), step as (
      select ${has(STEP_BITS.viewed)} as viewed,
             ${has(STEP_BITS.viewed)} and ${has(STEP_BITS.choseMonthly | STEP_BITS.choseYearly)} as chose,
             ${has(STEP_BITS.viewed)} and ${has(STEP_BITS.choseMonthly | STEP_BITS.choseYearly)}
               and ${has(STEP_BITS.beganMonthly | STEP_BITS.beganYearly)} as began,
             ${has(STEP_BITS.choseMonthly)} as chose_m, ${has(STEP_BITS.choseYearly)} as chose_y,
             ${has(STEP_BITS.beganMonthly)} as began_m, ${has(STEP_BITS.beganYearly)} as began_y,
             ${has(STEP_BITS.signedUp)} as signed,
             coalesce(p.paid_m, false) as paid_m, coalesce(p.paid_y, false) as paid_y,
             coalesce(p.subscriptions, 0) as subscriptions
        from visitor v left join payer p using (client_id)
    )
    select count(*) filter (where viewed)::int as viewed,
           count(*) filter (where chose)::int as chose,
           count(*) filter (where began)::int as began,
           count(*) filter (where began and (paid_m or paid_y))::int as paid,
           count(*) filter (where viewed and chose_m)::int as chose_monthly,
           count(*) filter (where viewed and chose_y)::int as chose_yearly,
           count(*) filter (where chose and began_m)::int as began_monthly,
           count(*) filter (where chose and began_y)::int as began_yearly,
           count(*) filter (where began and paid_m)::int as paid_monthly,
           count(*) filter (where began and paid_y)::int as paid_yearly,
           count(*) filter (where viewed and signed)::int as signed,
           coalesce(sum(subscriptions) filter (where began), 0)::int as attributed,
           (select count(*) from first_paid)::int as payments
      from step
  `);
  const row = (result as unknown as { rows: Record<string, number | string>[] }).rows[0] ?? {};
  const count = (name: string) => Number(row[name] ?? 0);

  const steps: FunnelStep[] = FUNNEL_STEPS.map((step, index) => {
    const visitors = count(step.key);
    const previous = index === 0 ? null : count(FUNNEL_STEPS[index - 1]!.key);
    return {
      key: step.key,
      label: step.label,
      visitors,
      fromPrevious: previous === null ? null : ratio(visitors, previous),
      overall: index === 0 ? null : ratio(visitors, count("viewed")),
    };
  });
  return {
    steps,
    byCycle: CYCLES.map((cycle) => ({
      cycle,
      chose: count(`chose_${cycle}`),
      began: count(`began_${cycle}`),
      paid: count(`paid_${cycle}`),
    })),
    signedUp: count("signed"),
    payments: { total: count("payments"), attributed: count("attributed") },
  };
}
