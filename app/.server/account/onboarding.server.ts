import { type Database, db as defaultDb } from "../db";
import { onboardingReports } from "../db/schema";
import { type OnboardingFacts, readAccountState } from "./account-state.server";

/** The first-run checklist of the account overview, in the order people go through it. */
export const ONBOARDING_STEPS = [
  "download_app",
  "sign_in_from_app",
  "device_seen",
  "first_usage_report",
] as const;
export type OnboardingStepName = (typeof ONBOARDING_STEPS)[number];

export interface OnboardingProgress {
  steps: { name: OnboardingStepName; done: boolean }[];
  complete: boolean;
  /** Seconds from sign-up to the last step, once every step is done. */
  timeSpent: number | null;
}

function earliest(...instants: (Date | null)[]): Date | null {
  const known = instants.filter((instant): instant is Date => instant !== null);
  return known.length === 0 ? null : new Date(Math.min(...known.map((at) => at.getTime())));
}

/**
 * Which steps of the checklist a user has done, decided from what the site itself recorded:
 * - download_app: downloads are counted without saying who (release_daily_counts), so the first
 *   sign of an installed app is the app itself: it asked to sign in (a desktop handoff was issued;
 *   those rows are kept a day past expiry) or it has signed in;
 * - sign_in_from_app: a device was ever created for the user (signed out since or not);
 * - device_seen: a device talked to the site again after signing in (its last-seen time moved on,
 *   which the desktop API records at most once a minute, or it sent a usage report);
 * - first_usage_report: the app sent feature usage.
 */
export async function findOnboardingProgress(
  userId: string,
  database: Database = defaultDb(),
  now = new Date(),
): Promise<OnboardingProgress> {
  return onboardingProgressOf((await readAccountState(userId, { database, now })).onboarding, now);
}

/** The checklist at `now` from what was recorded (see `findOnboardingProgress`). */
export function onboardingProgressOf(facts: OnboardingFacts, now: Date): OnboardingProgress {
  const signUp = facts.signedUpAt ?? now;
  // The app's clock dates usage: kept between sign-up and now.
  const usedAt = facts.usageAt
    ? new Date(Math.min(Math.max(facts.usageAt.getTime(), signUp.getTime()), now.getTime()))
    : null;
  const { signedInAt } = facts;
  const doneAt: Record<OnboardingStepName, Date | null> = {
    download_app: earliest(facts.handoffAt, signedInAt),
    sign_in_from_app: signedInAt,
    device_seen: earliest(facts.seenAt, usedAt),
    first_usage_report: usedAt,
  };
  const steps = ONBOARDING_STEPS.map((name) => ({ name, done: doneAt[name] !== null }));
  const complete = steps.every((step) => step.done);
  // Complete means a usage report exists, which also dates device_seen (a report is a visit), so
  // the finish is the later of the first sign-in and the first report: last-seen times, which
  // keep moving, never stretch it.
  const finishedAt = Math.max(...Object.values(doneAt).map((at) => at?.getTime() ?? 0));
  return {
    steps,
    complete,
    timeSpent: complete
      ? Math.max(0, Math.round((Math.min(finishedAt, now.getTime()) - signUp.getTime()) / 1000))
      : null,
  };
}

export interface OnboardingEventsToSend {
  steps: OnboardingStepName[];
  /** onboarding_complete's time_spent, when this claim is the one that reports it. */
  completeTimeSpent: number | null;
}

/**
 * Claims the checklist events a browser may send now: every step done and, once all are, the
 * completion, each claimed by inserting its row. Only the insert that succeeds returns the step,
 * so two tabs, two browsers or a revisit never send one twice (once per person ever, issue 34).
 * A claim whose events then never leave the browser (a closed tab) is not made again: analytics
 * may miss one, never double it.
 */
export async function claimOnboardingEvents(
  userId: string,
  database: Database = defaultDb(),
  now = new Date(),
): Promise<OnboardingEventsToSend> {
  const progress = await findOnboardingProgress(userId, database, now);
  const wanted: string[] = progress.steps.filter((step) => step.done).map((step) => step.name);
  if (progress.complete && progress.timeSpent !== null) wanted.push("complete");
  if (wanted.length === 0) return { steps: [], completeTimeSpent: null };
  const claimed = new Set(
    (
      await database
        .insert(onboardingReports)
        .values(wanted.map((step) => ({ userId, step })))
        .onConflictDoNothing()
        .returning({ step: onboardingReports.step })
    ).map((row) => row.step),
  );
  return {
    // In the checklist's order.
    steps: ONBOARDING_STEPS.filter((step) => claimed.has(step)),
    completeTimeSpent: claimed.has("complete") ? progress.timeSpent : null,
  };
}
