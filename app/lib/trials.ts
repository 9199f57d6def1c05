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

/**
 * Why a trial ended before its day, in the words of the rule that ended it (issue 53, finding 10:
 * the one-trial-per-computer rule, applied when a trial account's first computer signs in).
 */
export const TRIAL_END_REASONS = ["machine-had-trial"] as const;
export type TrialEndReason = (typeof TRIAL_END_REASONS)[number];
export const TRIAL_ENDED_BECAUSE: Record<TrialEndReason, string> = {
  "machine-had-trial":
    "a computer signed in to this account has already had a free trial, on another account",
};

/** "Your free Pro trial ended on 7 Dec 2026." or, ended early, "…, early: <why>." */
export function trialEndedWords(endsAt: Date | string, reason: TrialEndReason | null): string {
  const day = formatDate(typeof endsAt === "string" ? endsAt : endsAt.toISOString());
  return reason
    ? `Your free Pro trial ended on ${day}, early: ${TRIAL_ENDED_BECAUSE[reason]}.`
    : `Your free Pro trial ended on ${day}.`;
}
