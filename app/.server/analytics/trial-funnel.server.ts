/**
 * The free trials' funnel on the cockpit (issue 36, point 5): the trials started in a period, by
 * the India week they started in (Monday to Sunday), and how many of them went on to use the app
 * (a desktop device signed in while the trial ran) and to pay (a captured payment since the trial
 * started). Read from our own tables, so it needs no analytics consent and counts everyone.
 */
import { and, gte, lt, sql } from "drizzle-orm";
import { addIstDays, istDay } from "~/lib/india-time";
import { type Database, db as defaultDb } from "../db";
import { trials } from "../db/schema";
import { paidSince } from "../trials/paid-since.server";
import type { Period } from "./period";

export interface TrialWeek {
  /** The week's Monday, an India date ("YYYY-MM-DD"). */
  weekOf: string;
  started: number;
  /** A desktop device of the account signed in while its trial ran. */
  usedApp: number;
  /** A payment captured since the trial started (a plan set to start at its end counts once paid). */
  paid: number;
  /** Still running now, not paid yet: these may still convert. */
  running: number;
}

export interface TrialFunnel {
  weeks: TrialWeek[];
  total: Omit<TrialWeek, "weekOf">;
}

/** The Monday of the India week `day` ("YYYY-MM-DD") falls in. */
export function istWeekOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 is Sunday
  return addIstDays(day, -((weekday + 6) % 7));
}

export async function trialFunnelFor(
  period: Period,
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<TrialFunnel> {
  // Written out with the trials table's name: drizzle names a column without its table when the
  // query has one, and inside these subqueries that would be the subquery's column.
  const rows = await database
    .select({
      startedAt: trials.startedAt,
      endsAt: trials.endsAt,
      usedApp: sql<boolean>`exists (
        select 1 from desktop_devices d
         where d.user_id = "trials"."user_id"
           and d.created_at < "trials"."ends_at"
           and d.last_seen_at >= "trials"."started_at")`,
      paid: paidSince(sql`"trials"."user_id"`, sql`"trials"."started_at"`),
    })
    .from(trials)
    .where(and(gte(trials.startedAt, period.from), lt(trials.startedAt, period.to)));
  const weeks = new Map<string, TrialWeek>();
  const total = { started: 0, usedApp: 0, paid: 0, running: 0 };
  for (const row of rows) {
    const weekOf = istWeekOf(istDay(row.startedAt));
    const week = weeks.get(weekOf) ?? { weekOf, started: 0, usedApp: 0, paid: 0, running: 0 };
    const counts = {
      started: 1,
      usedApp: row.usedApp ? 1 : 0,
      paid: row.paid ? 1 : 0,
      running: !row.paid && row.endsAt > now ? 1 : 0,
    };
    for (const key of ["started", "usedApp", "paid", "running"] as const) {
      week[key] += counts[key];
      total[key] += counts[key];
    }
    weeks.set(weekOf, week);
  }
  return {
    weeks: [...weeks.values()].sort((a, b) => a.weekOf.localeCompare(b.weekOf)),
    total,
  };
}
