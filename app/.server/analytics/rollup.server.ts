import { and, between, eq, gte, inArray, lt, min, type SQL, sql } from "drizzle-orm";
import { SERVER_RECORDED_EVENTS } from "~/lib/analytics/catalogue";
import {
  addIstDays,
  addIstMonths,
  istDay,
  istDayStart,
  istMonth,
  istStartOf,
} from "~/lib/india-time";
import { type Database, db as defaultDb, type Executor } from "../db";
import {
  analyticsDaily,
  analyticsEvents,
  analyticsRolledDays,
  analyticsVisitorDays,
} from "../db/schema";
import { env } from "../env";
import { afterOwnSlot, chainPayload, nextSlot } from "../jobs/chain";
import { defineJob, enqueue } from "../jobs/define";
import { logger } from "../logger";
import { visitorSteps } from "./visitor-steps.server";
import { unrolledRuns } from "./period";

/**
 * Analytics events summed per India day (`analytics_daily`), and the raw events pruned after the
 * retention period. A day is summed once it can no longer change: the collector accepts events
 * stamped up to 24 hours before they arrive, so the day before yesterday is the newest final day.
 * Days not summed yet (today, yesterday, or any the job has not reached) are summed on the fly by
 * the same queries, so the cockpit reads the same numbers either way.
 */

/** The metrics kept per day; each is one GROUP BY over the day's events. */
export const METRICS = ["all", "event", "page", "search", "cta", "exception", "feature"] as const;
export type Metric = (typeof METRICS)[number];

export interface DailyRow {
  day: string;
  metric: Metric;
  dim: string;
  dim2: string;
  events: number;
  visitors: number;
  firstAt: Date;
  lastAt: Date;
}

const e = analyticsEvents;
/** India has no daylight saving: the India day is the UTC time moved by 5 h 30 min. */
const DAY = sql<string>`to_char((${e.occurredAt} at time zone 'UTC') + interval '330 minutes', 'YYYY-MM-DD')`;
const param = (name: string) => sql<string>`coalesce(${e.params} ->> ${name}, '')`;

/**
 * What a metric counts: its rows, or (`events`) a sum the rows carry. Feature uses are summed
 * from the counts the app reported (a report of 12 uses is 12, not 1); an event stored before
 * counts were kept is one use. Capped at the daily table's integer range.
 */
const SHAPES: Record<
  Metric,
  { where: SQL; dim: SQL<string>; dim2: SQL<string>; events?: SQL<number> }
> = {
  // Site visitors: what the server records itself (feature uses, a trial's end) is no visit.
  all: {
    where: sql`${e.name} not in (${sql.join(
      SERVER_RECORDED_EVENTS.map((name) => sql`${name}`),
      sql`, `,
    )})`,
    dim: sql<string>`''`,
    dim2: sql<string>`''`,
  },
  event: { where: sql`true`, dim: sql<string>`${e.name}`, dim2: sql<string>`''` },
  page: { where: sql`${e.name} = 'page_view'`, dim: param("page_path"), dim2: sql<string>`''` },
  search: {
    where: sql`${e.name} = 'search' and btrim(${param("search_term")}) <> ''`,
    // Terms are counted as people typed them, less case and surrounding spaces.
    dim: sql<string>`lower(btrim(${param("search_term")}))`,
    dim2: sql<string>`case when ${e.params} ->> 'results_count' = '0' then 'empty' else '' end`,
  },
  cta: { where: sql`${e.name} = 'cta_click'`, dim: param("cta_name"), dim2: param("cta_location") },
  exception: {
    where: sql`${e.name} = 'exception'`,
    dim: param("error_type"),
    dim2: param("location"),
  },
  feature: {
    where: sql`${e.name} = 'feature_use'`,
    dim: param("feature_name"),
    dim2: sql`''`,
    events: sql<number>`least(sum(coalesce((${e.params} ->> 'count')::bigint, 1)), 2147483647)::int`,
  },
};

/** Sums the raw events of [from, to) per India day for the given metrics. */
export async function sumEvents(
  from: Date,
  to: Date,
  metrics: readonly Metric[],
  database: Database = defaultDb(),
): Promise<DailyRow[]> {
  const results = await Promise.all(
    metrics.map(async (metric) => {
      const shape = SHAPES[metric];
      const rows = await database
        .select({
          day: DAY,
          dim: shape.dim,
          dim2: shape.dim2,
          events: shape.events ?? sql<number>`count(*)::int`,
          visitors: sql<number>`count(distinct ${e.clientId})::int`,
          firstAt: sql<Date>`min(${e.occurredAt})`,
          lastAt: sql<Date>`max(${e.occurredAt})`,
        })
        .from(e)
        .where(and(gte(e.occurredAt, from), lt(e.occurredAt, to), shape.where))
        .groupBy(sql`1, 2, 3`);
      return rows.map((row) => ({
        ...row,
        metric,
        events: Number(row.events),
        visitors: Number(row.visitors),
        firstAt: new Date(row.firstAt),
        lastAt: new Date(row.lastAt),
      }));
    }),
  );
  return results.flat();
}

/** The India days from `first` to `last` (inclusive) already summed. */
export async function rolledDaysBetween(
  first: string,
  last: string,
  database: Database = defaultDb(),
): Promise<Set<string>> {
  const rows = await database
    .select({ day: analyticsRolledDays.day })
    .from(analyticsRolledDays)
    .where(between(analyticsRolledDays.day, first, last));
  return new Set(rows.map((row) => row.day));
}

/**
 * The daily rows of a period for the given metrics: summed days from `analytics_daily`, the rest
 * summed from the raw events now.
 */
export async function dailyRows(
  days: readonly string[],
  metrics: readonly Metric[],
  database: Database = defaultDb(),
): Promise<DailyRow[]> {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return [];
  const rolled = await rolledDaysBetween(first, last, database);
  const [stored, ...live] = await Promise.all([
    rolled.size === 0
      ? Promise.resolve([])
      : database
          .select()
          .from(analyticsDaily)
          .where(
            and(
              inArray(analyticsDaily.metric, [...metrics]),
              between(analyticsDaily.day, first, last),
            ),
          ),
    ...unrolledRuns(days, rolled).map((run) =>
      sumEvents(istDayStart(run[0]!)!, istDayStart(addIstDays(run.at(-1)!, 1))!, metrics, database),
    ),
  ]);
  return [...(stored as DailyRow[]), ...live.flat()];
}

/** The newest India day whose events can no longer change (see the module comment). */
export function newestFinalDay(now: Date): string {
  return addIstDays(istDay(now), -2);
}

/** Sums one day into `analytics_daily` and marks it, in one transaction; repeatable. */
export async function rollUpDay(day: string, database: Database = defaultDb()): Promise<number> {
  const rows = await sumEvents(
    istDayStart(day)!,
    istDayStart(addIstDays(day, 1))!,
    METRICS,
    database,
  );
  await database.transaction(async (tx) => {
    await tx.delete(analyticsDaily).where(eq(analyticsDaily.day, day));
    // Batches keep each statement's parameter count well under PostgreSQL's limit.
    for (let index = 0; index < rows.length; index += 500)
      await tx.insert(analyticsDaily).values(rows.slice(index, index + 500));
    await tx.delete(analyticsVisitorDays).where(eq(analyticsVisitorDays.day, day));
    await tx.execute(sql`
      insert into ${analyticsVisitorDays} (day, client_id, steps)
      select ${day}, client_id, steps
        from (${visitorSteps(istDayStart(day)!, istDayStart(addIstDays(day, 1))!)}) v`);
    await tx.insert(analyticsRolledDays).values({ day }).onConflictDoNothing();
  });
  return rows.length;
}

/**
 * Sums every final day not summed yet, oldest first, from the oldest stored event. Stops early
 * when `signal` aborts (the job's time limit); the next run goes on where this one stopped.
 */
export async function rollUpFinalDays(
  now: Date = new Date(),
  database: Database = defaultDb(),
  signal?: AbortSignal,
): Promise<string[]> {
  const [oldest] = await database.select({ at: min(e.occurredAt) }).from(e);
  if (!oldest?.at) return [];
  const last = newestFinalDay(now);
  const first = istDay(new Date(oldest.at));
  if (first > last) return [];
  const rolled = await rolledDaysBetween(first, last, database);
  const done: string[] = [];
  for (let day = first; day <= last; day = addIstDays(day, 1)) {
    if (signal?.aborted) break;
    if (rolled.has(day)) continue;
    await rollUpDay(day, database);
    done.push(day);
  }
  return done;
}

/** The first moment whose events are kept: the start of the India day `months` months ago. */
export function retentionCutoff(now: Date, months: number): Date {
  const [year, month] = addIstMonths(istMonth(now), -months).split("-").map(Number) as [
    number,
    number,
  ];
  // The same day of that month, or its last day (31 March minus one month is 28/29 February).
  const lastOfMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return istStartOf(year, month - 1, Math.min(Number(istDay(now).slice(8, 10)), lastOfMonth));
}

const PRUNE_BATCH = 10_000;

/**
 * Deletes raw events older than the retention period, but only from days already summed: a day
 * the roll-up has not reached is kept until it has. Deletes in batches so no statement holds
 * locks for long; returns how many were deleted.
 */
export async function pruneRawEvents(
  now: Date = new Date(),
  months: number = env().ANALYTICS_RETENTION_MONTHS,
  database: Database = defaultDb(),
  signal?: AbortSignal,
): Promise<number> {
  let cutoff = retentionCutoff(now, months);
  const [oldest] = await database.select({ at: min(e.occurredAt) }).from(e);
  if (!oldest?.at || new Date(oldest.at) >= cutoff) return 0;
  const first = istDay(new Date(oldest.at));
  const beforeCutoff = addIstDays(istDay(cutoff), -1);
  const rolled = await rolledDaysBetween(first, beforeCutoff, database);
  for (let day = first; day <= beforeCutoff; day = addIstDays(day, 1))
    if (!rolled.has(day)) {
      cutoff = istDayStart(day)!;
      break;
    }
  // The per-visitor day rows carry the client id: they go with the raw events of their day.
  await database.delete(analyticsVisitorDays).where(lt(analyticsVisitorDays.day, istDay(cutoff)));
  let deleted = 0;
  for (;;) {
    if (signal?.aborted) break;
    const rows = await database.execute(sql`
      delete from ${e} where ${e.id} in (
        select ${e.id} from ${e} where ${e.occurredAt} < ${cutoff} limit ${PRUNE_BATCH})
      returning 1`);
    const count = (rows as unknown as { rows: unknown[] }).rows.length;
    deleted += count;
    if (count < PRUNE_BATCH) break;
  }
  return deleted;
}

export const ROLLUP_JOB = "analytics.rollup";
const HOUR = 60 * 60 * 1000;

/** Queues the next hourly roll-up; the dedupe key names the hour, so instances add one between them. */
export async function scheduleRollup(executor: Executor, after = new Date()): Promise<void> {
  const next = nextSlot(after, HOUR);
  await enqueue(
    executor,
    rollupJob,
    { at: next.toISOString() },
    { dedupeKey: `${ROLLUP_JOB}:${next.toISOString()}`, runAt: next },
  );
}

/** Hourly (maintenance lane): sum the final days, prune what is past retention, schedule the next. */
export const rollupJob = defineJob({
  name: ROLLUP_JOB,
  lane: "maintenance",
  payload: chainPayload,
  timeoutMs: 10 * 60_000,
  maxAttempts: 3,
  async handler({ at }, { signal }) {
    const database = defaultDb();
    const days = await rollUpFinalDays(new Date(), database, signal);
    const pruned = await pruneRawEvents(new Date(), undefined, database, signal);
    if (days.length + pruned > 0)
      logger().info({ days: days.length, pruned }, "summed analytics days and pruned raw events");
    await scheduleRollup(database, afterOwnSlot(at));
  },
});
