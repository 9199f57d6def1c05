/** What a person reads about their free trial (account page, mails, the app's notice). */
import { formatDate } from "./dates";
import { countOf } from "./format";

const DAY_MS = 86_400_000;

/** Whole days left, a part day counting as one: "9 days left" until the last hours say "1 day". */
export function trialDaysLeft(endsAt: Date | string, now: Date = new Date()): number {
  const end = typeof endsAt === "string" ? Date.parse(endsAt) : endsAt.getTime();
  return Math.max(0, Math.ceil((end - now.getTime()) / DAY_MS));
}

/** "Pro trial: 9 days left, ends 11 Dec 2026". */
export function trialCountdown(endsAt: Date | string, now: Date = new Date()): string {
  const days = trialDaysLeft(endsAt, now);
  const end = typeof endsAt === "string" ? endsAt : endsAt.toISOString();
  return `Pro trial: ${countOf(days, "day")} left, ends ${formatDate(end)}`;
}
