/**
 * What each analytics visitor did towards buying, as bits, read from the raw events: the roll-up
 * stores it per day (rollup.server.ts) and the funnel reads it for days not summed yet
 * (funnel.server.ts). Its own module so that neither of those imports the other.
 */
import { sql } from "drizzle-orm";
import { analyticsPlanName, PAID_PLAN_IDS, planById } from "~/lib/plans";
import { analyticsEvents } from "../db/schema";

/** SQL mapping a plan name (as the events carry it) or a plan id to its billing cycle. */
export function cycleCase(column: ReturnType<typeof sql>, by: "name" | "id") {
  const branches = PAID_PLAN_IDS.map((id) => {
    const plan = planById(id);
    return sql`when ${by === "name" ? analyticsPlanName(plan) : id} then ${plan.billingCycle}`;
  });
  return sql`(case ${column} ${sql.join(branches, sql` `)} else null end)`;
}

/** The bit of each thing a visitor may do, as kept per day in `analytics_visitor_days`. */
export const STEP_BITS = {
  viewed: 1,
  choseMonthly: 2,
  choseYearly: 4,
  beganMonthly: 8,
  beganYearly: 16,
  signedUp: 32,
} as const;

/**
 * Each visitor of [from, to) with the bits of what they did (one row per visitor), from the raw
 * events: what the roll-up stores per day, and what the funnel reads for days not summed yet.
 */
export function visitorSteps(from: Date, to: Date) {
  const e = analyticsEvents;
  const cycleOfName = cycleCase(sql`${e.params} ->> 'plan_name'`, "name");
  const bit = (condition: ReturnType<typeof sql>, value: number) =>
    sql`(case when ${condition} then ${sql.raw(String(value))} else 0 end)`;
  const bits = sql.join(
    [
      bit(sql`${e.name} = 'view_pricing'`, STEP_BITS.viewed),
      bit(
        sql`${e.name} = 'plan_select' and ${e.params} ->> 'billing_cycle' = 'monthly'`,
        STEP_BITS.choseMonthly,
      ),
      bit(
        sql`${e.name} = 'plan_select' and ${e.params} ->> 'billing_cycle' = 'yearly'`,
        STEP_BITS.choseYearly,
      ),
      bit(sql`${e.name} = 'begin_checkout' and ${cycleOfName} = 'monthly'`, STEP_BITS.beganMonthly),
      bit(sql`${e.name} = 'begin_checkout' and ${cycleOfName} = 'yearly'`, STEP_BITS.beganYearly),
      bit(
        sql`${e.name} = 'form_submit' and ${e.params} ->> 'form_name' = 'sign_up' and ${e.params} ->> 'success' = 'true'`,
        STEP_BITS.signedUp,
      ),
    ],
    sql` | `,
  );
  return sql`
    select ${e.clientId} as client_id, bit_or(${bits}) as steps
      from ${e}
     where ${e.name} in ('view_pricing', 'plan_select', 'begin_checkout', 'form_submit')
       and ${e.occurredAt} >= ${from.toISOString()}::timestamptz
       and ${e.occurredAt} < ${to.toISOString()}::timestamptz
       and ${e.clientId} is not null
     group by ${e.clientId}
    having bit_or(${bits}) <> 0`;
}
