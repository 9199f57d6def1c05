/**
 * A trial's end, recorded once (issue 36, point 10): at the moment it ends a job marks it and,
 * when the browser that started it had consented to analytics, stores that browser's `trial_end`
 * event (its days, extensions included, and whether a plan was bought). The job is queued with
 * the trial and again for a new end when it is extended; one for an end that moved does nothing.
 */
import { statusesWhere } from "~/lib/subscription-state";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { parseEvent } from "~/lib/analytics/catalogue";
import { planEvents } from "~/lib/analytics/plan-events";
import { db as defaultDb, type Database, type Executor } from "../db";
import { analyticsEvents, subscriptions, type TrialRow, trials } from "../db/schema";
import { defineJob, enqueue } from "../jobs/define";
import { paidSince } from "./paid-since.server";

export const TRIAL_END_JOB = "trial.end";
const DAY_MS = 86_400_000;

const payloadSchema = z.object({
  trialId: z.uuid(),
  /** The end it was queued for: a trial moved since records nothing for this one. */
  endsAt: z.iso.datetime(),
});

export async function queueTrialEnd(
  executor: Executor,
  trial: Pick<TrialRow, "id" | "endsAt">,
): Promise<void> {
  await enqueue(
    executor,
    trialEndJob,
    { trialId: trial.id, endsAt: trial.endsAt.toISOString() },
    {
      dedupeKey: `${TRIAL_END_JOB}:${trial.id}:${trial.endsAt.toISOString()}`,
      runAt: trial.endsAt,
    },
  );
}

/** Whether the person bought a plan since the trial started (paid, or set to start at its end). */
async function convertedSince(executor: Executor, userId: string, since: Date): Promise<boolean> {
  const [row] = await executor
    .select({ paid: paidSince(userId, since) })
    .from(sql`(select 1) as one`);
  if (row?.paid) return true;
  const [running] = await executor
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        inArray(
          subscriptions.status,
          statusesWhere((rules) => rules.renews),
        ),
      ),
    )
    .limit(1);
  return Boolean(running);
}

/** Records the trial's end once; false when there is nothing (more) to record for this job. */
export async function recordTrialEnd(
  job: z.output<typeof payloadSchema>,
  database: Database = defaultDb(),
  now = new Date(),
): Promise<boolean> {
  return database.transaction(async (tx) => {
    const [trial] = await tx.select().from(trials).where(eq(trials.id, job.trialId)).for("update");
    if (!trial || trial.endRecordedAt || trial.endsAt.toISOString() !== job.endsAt) return false;
    if (trial.endsAt > now) return false;
    await tx.update(trials).set({ endRecordedAt: now }).where(eq(trials.id, trial.id));
    if (!trial.analyticsClientId) return true;
    const converted = trial.userId
      ? await convertedSince(tx, trial.userId, trial.startedAt)
      : false;
    const days = Math.max(
      1,
      Math.round((trial.endsAt.getTime() - trial.startedAt.getTime()) / DAY_MS),
    );
    const parsed = parseEvent("trial_end", planEvents.trialEnd(trial.planId, days, converted));
    if (!parsed.ok) throw new Error(`trial_end does not fit the catalogue: ${parsed.error}`);
    await tx.insert(analyticsEvents).values({
      name: parsed.event.name,
      params: parsed.event.params,
      clientId: trial.analyticsClientId,
      occurredAt: trial.endsAt,
    });
    return true;
  });
}

export const trialEndJob = defineJob({
  name: TRIAL_END_JOB,
  lane: "maintenance",
  payload: payloadSchema,
  timeoutMs: 30_000,
  maxAttempts: 12,
  async handler(payload) {
    await recordTrialEnd(payload);
  },
});
