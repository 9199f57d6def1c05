/** Dates of the account and admin pages, as people in India read them (Asia/Kolkata). */

const dayFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  // A day key names a calendar date, not an instant: read it in UTC so no zone shifts it.
  timeZone: "UTC",
});
const dayWithYearFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const dateTimeFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "Asia/Kolkata",
});

function dayToDate(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** "2026-03-11" → "11 Mar". */
export function formatDay(day: string): string {
  return dayFormat.format(dayToDate(day));
}

/** "2026-03-11" → "11 Mar 2026". */
export function formatDayWithYear(day: string): string {
  return dayWithYearFormat.format(dayToDate(day));
}

/** An instant with its time in India: "11 Mar 2026, 3:04 pm". */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}
