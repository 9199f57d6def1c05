import { inIndia } from "./india-time";

/**
 * The one date formatter: dates as people in India read them ("22 Nov 2026", "22 November
 * 2026", "11 Mar 2026, 3:04 pm"). Written out by hand rather than with Intl: the server's and the
 * browser's locale data can differ, and any difference is a hydration mismatch. A calendar day
 * ("2026-03-11") is shown as that day; an instant is shown in India time.
 */
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function partsOf(value: string | Date): Parts | null {
  if (typeof value === "string") {
    const calendar = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (calendar)
      return {
        year: Number(calendar[1]),
        month: Number(calendar[2]) - 1,
        day: Number(calendar[3]),
        hour: 0,
        minute: 0,
      };
  }
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  const ist = inIndia(date);
  return {
    year: ist.getUTCFullYear(),
    month: ist.getUTCMonth(),
    day: ist.getUTCDate(),
    hour: ist.getUTCHours(),
    minute: ist.getUTCMinutes(),
  };
}

function monthName(month: number, style: "short" | "long"): string {
  const name = MONTHS[month] ?? "";
  return style === "long" ? name : name.slice(0, 3);
}

/** "22 Nov 2026" (or "22 November 2026" with `long`). */
export function formatDate(value: string | Date, style: "short" | "long" = "short"): string {
  const parts = partsOf(value);
  if (!parts) return String(value);
  return `${parts.day} ${monthName(parts.month, style)} ${parts.year}`;
}

/** "11 Mar": a day of the current stretch (charts, short lists). */
export function formatDay(value: string | Date): string {
  const parts = partsOf(value);
  if (!parts) return String(value);
  return `${parts.day} ${monthName(parts.month, "short")}`;
}

/** "11 Mar 2026, 3:04 pm", in India time. */
export function formatDateTime(value: string | Date): string {
  const parts = partsOf(value);
  if (!parts) return String(value);
  const hour12 = parts.hour % 12 === 0 ? 12 : parts.hour % 12;
  const minute = String(parts.minute).padStart(2, "0");
  return `${formatDate(value)}, ${hour12}:${minute} ${parts.hour < 12 ? "am" : "pm"}`;
}
