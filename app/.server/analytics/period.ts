import { addIstDays, istDay, istDayStart } from "~/lib/india-time";

/**
 * The cockpit's period: whole India days, the last 7/30/90 days by default or a chosen from–to.
 * Parsed from the page's query string; a bad value falls back to the default with a message, so
 * an edited URL shows a page that says what was wrong instead of an error.
 */
export const PRESET_DAYS = [7, 30, 90] as const;
export const DEFAULT_DAYS = 30;
/** A longer custom period would make the funnel read more raw events than the page can afford. */
export const MAX_PERIOD_DAYS = 400;

export interface Period {
  /** First and last India day, inclusive ("YYYY-MM-DD"). */
  fromDay: string;
  toDay: string;
  /** [from, to): midnight of the first day to midnight after the last, in India. */
  from: Date;
  to: Date;
  /** Every day of the period, oldest first. */
  days: string[];
  /** The preset chosen, or null for a custom from–to. */
  preset: number | null;
}

export function periodOfDays(fromDay: string, toDay: string, preset: number | null): Period {
  const days: string[] = [];
  for (let day = fromDay; day <= toDay; day = addIstDays(day, 1)) days.push(day);
  return {
    fromDay,
    toDay,
    from: istDayStart(fromDay)!,
    to: istDayStart(addIstDays(toDay, 1))!,
    days,
    preset,
  };
}

export function lastDays(count: number, now: Date): Period {
  const today = istDay(now);
  return periodOfDays(addIstDays(today, -(count - 1)), today, count);
}

export function parsePeriod(
  params: URLSearchParams,
  now: Date = new Date(),
): { period: Period; problem: string | null } {
  const fallback = (problem: string | null) => ({ period: lastDays(DEFAULT_DAYS, now), problem });
  const from = params.get("from");
  const to = params.get("to");
  if (from || to) {
    if (!from || !to) return fallback("Choose both a first and a last day.");
    if (!istDayStart(from) || !istDayStart(to))
      return fallback("Days are written as YYYY-MM-DD, e.g. 2026-11-01.");
    const today = istDay(now);
    if (from > to) return fallback("The first day must not be after the last day.");
    if (from > today) return fallback("The period must not start in the future.");
    const last = to > today ? today : to;
    const period = periodOfDays(from, last, null);
    if (period.days.length > MAX_PERIOD_DAYS)
      return fallback(`Choose at most ${MAX_PERIOD_DAYS} days.`);
    return { period, problem: null };
  }
  const days = params.get("days");
  if (days === null) return fallback(null);
  const count = Number(days);
  if (!(PRESET_DAYS as readonly number[]).includes(count))
    return fallback(`Choose ${PRESET_DAYS.join(", ")} days or a from–to period.`);
  return { period: lastDays(count, now), problem: null };
}

/** Consecutive days of `days` (sorted) that are not in `rolled`, as [first, last] pairs. */
export function unrolledRuns(days: readonly string[], rolled: ReadonlySet<string>): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const day of days) {
    if (rolled.has(day)) {
      if (run.length > 0) runs.push(run);
      run = [];
    } else run.push(day);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
