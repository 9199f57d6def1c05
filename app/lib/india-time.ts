/**
 * India's calendar in one place: India is UTC+05:30 all year (no daylight saving), and months,
 * financial years and invoice dates are counted in India time.
 */
export const IST_OFFSET_MS = 330 * 60_000;

/** The moment a calendar day/month starts in India, as a Date. */
export function istStartOf(year: number, monthIndex: number, day = 1): Date {
  return new Date(Date.UTC(year, monthIndex, day) - IST_OFFSET_MS);
}

/** The Indian calendar fields of a moment (read them with getUTC…). */
export function inIndia(date: Date): Date {
  return new Date(date.getTime() + IST_OFFSET_MS);
}

/** "2026-11" → [1 Nov 00:00 IST, 1 Dec 00:00 IST); null when malformed. */
export function istMonthRange(month: string): { from: Date; to: Date } | null {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) return null;
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { from: istStartOf(year, index), to: istStartOf(year, index + 1) };
}

/** The month a moment falls in, in India, as "YYYY-MM". */
export function istMonth(now: Date): string {
  const ist = inIndia(now);
  return `${ist.getUTCFullYear()}-${String(ist.getUTCMonth() + 1).padStart(2, "0")}`;
}

const DAY_MS = 86_400_000;
/** The last day asked for and the span of milliseconds it covers: counters ask on every request. */
let lastDay = { from: 0, to: 0, day: "" };

/** The day a moment falls on, in India, as "YYYY-MM-DD" (daily statistics). */
export function istDay(now: Date): string {
  const at = now.getTime();
  if (at >= lastDay.from && at < lastDay.to) return lastDay.day;
  const day = inIndia(now).toISOString().slice(0, 10);
  const from = Math.floor((at + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
  lastDay = { from, to: from + DAY_MS, day };
  return day;
}

/** The moment an India calendar day ("YYYY-MM-DD") starts; null when malformed or not a day. */
export function istDayStart(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const start = istStartOf(year, month, date);
  // 2026-02-31 would roll over to March: not a day.
  return istDay(start) === day ? start : null;
}

/** A calendar day moved by whole days ("2026-03-31", 1 → "2026-04-01"). */
export function addIstDays(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** A calendar month moved by whole months ("2026-01", -2 → "2025-11"). */
export function addIstMonths(month: string, months: number): string {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + months, 1)).toISOString().slice(0, 7);
}
