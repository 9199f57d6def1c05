import { sql } from "drizzle-orm";
import { analyticsPlanName, type BillingCycle, PAID_PLAN_IDS, planById } from "~/lib/plans";
import { type Database, db as defaultDb } from "../db";
import { analyticsEvents, payments, subscriptions } from "../db/schema";
import type { Period } from "./period";

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

/** SQL mapping a plan name (as the events carry it) or a plan id to its billing cycle. */
function cycleCase(column: ReturnType<typeof sql>, by: "name" | "id") {
  const branches = PAID_PLAN_IDS.map((id) => {
    const plan = planById(id);
    return sql`when ${by === "name" ? analyticsPlanName(plan) : id} then ${plan.billingCycle}`;
  });
  return sql`(case ${column} ${sql.join(branches, sql` `)} else null end)`;
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

export async function funnelFor(period: Period, database: Database = defaultDb()): Promise<Funnel> {
  const e = analyticsEvents;
  const inPeriod = sql`${e.occurredAt} >= ${period.from} and ${e.occurredAt} < ${period.to}`;
  const eventsOf = (name: string) =>
    sql`select ${e.clientId} as client_id, ${e.params} as params from ${e}
         where ${e.name} = ${name} and ${inPeriod} and ${e.clientId} is not null`;
  // A subscription's first payment in the period; a plan switch is not a new purchase.
  const firstPayments = sql`
    select distinct on (s.id) s.id, s.analytics_client_id as client_id, s.plan_id
      from ${payments} p join ${subscriptions} s on s.id = p.subscription_id
     where p.status in ('captured', 'refunded')
       and p.paid_at >= ${period.from} and p.paid_at < ${period.to}
       and s.replaces_subscription_id is null
       and not exists (select 1 from ${payments} earlier
                        where earlier.subscription_id = s.id
                          and earlier.status in ('captured', 'refunded')
                          and earlier.paid_at < ${period.from})
     order by s.id, p.paid_at`;
  const result = await database.execute(sql`
    with viewed as (
      select distinct client_id from (${eventsOf("view_pricing")}) v
    ), chose as (
      select distinct c.client_id, c.params ->> 'billing_cycle' as cycle
        from (${eventsOf("plan_select")}) c join viewed using (client_id)
    ), began as (
      select distinct b.client_id, ${cycleCase(sql`b.params ->> 'plan_name'`, "name")} as cycle
        from (${eventsOf("begin_checkout")}) b
       where b.client_id in (select client_id from chose)
    ), first_payments as (${firstPayments}
    ), paid as (
      select distinct client_id, ${cycleCase(sql`plan_id`, "id")} as cycle
        from first_payments where client_id in (select client_id from began)
    ), signed as (
      select distinct s.client_id from (${eventsOf("form_submit")}) s join viewed using (client_id)
       where s.params ->> 'form_name' = 'sign_up' and s.params ->> 'success' = 'true'
    )
    select 'viewed' as step, '' as cycle, count(*)::int as n from viewed
    union all select 'chose', '', count(distinct client_id)::int from chose
    union all select 'began', '', count(distinct client_id)::int from began
    union all select 'paid', '', count(distinct client_id)::int from paid
    union all select 'chose', cycle, count(distinct client_id)::int from chose where cycle is not null group by cycle
    union all select 'began', cycle, count(distinct client_id)::int from began where cycle is not null group by cycle
    union all select 'paid', cycle, count(distinct client_id)::int from paid where cycle is not null group by cycle
    union all select 'signed', '', count(*)::int from signed
    union all select 'payments', '', count(*)::int from first_payments
    union all select 'attributed', '', count(*)::int from first_payments where client_id in (select client_id from began)
  `);
  const rows = (result as unknown as { rows: { step: string; cycle: string; n: number }[] }).rows;
  const count = (step: string, cycle = "") =>
    Number(rows.find((row) => row.step === step && row.cycle === cycle)?.n ?? 0);

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
      chose: count("chose", cycle),
      began: count("began", cycle),
      paid: count("paid", cycle),
    })),
    signedUp: count("signed"),
    payments: { total: count("payments"), attributed: count("attributed") },
  };
}
