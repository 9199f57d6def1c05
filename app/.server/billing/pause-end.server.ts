/**
 * A pause with an end (issue 59, points 1 and 2): the subscription resumes by itself on its
 * `resume_at`, and a notice goes out before, saying the day and what will be charged. Both are
 * jobs queued with the pause, keyed by the subscription and the day, so a pause given a new end
 * queues new ones and the old ones find the day changed and do nothing. A pause resumed or ended
 * meanwhile (by the customer, in their UPI app, or cancelled) is left as it is.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { db as defaultDb, type Database, type Executor } from "../db";
import { subscriptions, type SubscriptionRow } from "../db/schema";
import { addBillingCycles } from "~/lib/billing-cycle";
import { findPlan } from "~/lib/plans";
import { defineJob, enqueue } from "../jobs/define";
import { queueBillingMail } from "./notify.server";
import { razorpay } from "./provider.server";
import type { RazorpayClient } from "./razorpay/client";
import { resumePaused } from "./resume-paused.server";
import { stateOfRow } from "./subscription-state.server";
import { allows } from "~/lib/subscription-state";

export const PAUSE_END_JOB = "billing.pause-end";

/** The day a pause of `cycles` billing cycles ends: the paid period's end plus the cycles. */
export function resumeAtAfter(
  row: Pick<SubscriptionRow, "planId" | "currentEnd">,
  cycles: number,
): Date | null {
  const plan = findPlan(row.planId);
  if (!plan?.billingCycle || !row.currentEnd) return null;
  return addBillingCycles(row.currentEnd, plan.billingCycle, cycles);
}
/** The notice goes out this long before the day it resumes (and charges). */
export const PAUSE_END_NOTICE_DAYS = 3;
const DAY_MS = 86_400_000;

const payloadSchema = z.object({ subscriptionId: z.uuid(), resumeAt: z.iso.datetime() });

/** Queues the notice and the resume of a pause that ends on `resumeAt`, in the caller's transaction. */
export async function schedulePauseEnd(
  executor: Executor,
  subscriptionId: string,
  resumeAt: Date,
): Promise<void> {
  const at = resumeAt.toISOString();
  const noticeAt = new Date(resumeAt.getTime() - PAUSE_END_NOTICE_DAYS * DAY_MS);
  await queueBillingMail(executor, "pause-ending", subscriptionId, at, {
    runAt: noticeAt,
    resumeAt: at,
  });
  await enqueue(
    executor,
    pauseEndJob,
    { subscriptionId, resumeAt: at },
    { dedupeKey: `${PAUSE_END_JOB}:${subscriptionId}:${at}`, runAt: resumeAt },
  );
}

/**
 * Resumes the subscription if it is still paused here to resume on that day; false when there is
 * nothing to do (resumed, ended, or given another end since).
 */
export async function endPause(
  job: z.output<typeof payloadSchema>,
  database: Database = defaultDb(),
  client: RazorpayClient = razorpay(),
  now = new Date(),
): Promise<boolean> {
  const [row] = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, job.subscriptionId));
  if (!row?.resumeAt || row.resumeAt.toISOString() !== job.resumeAt) return false;
  if (row.resumeAt > now) throw new Error("a pause's end ran before its day");
  if (!allows(stateOfRow(row), "resume")) {
    await database
      .update(subscriptions)
      .set({ resumeAt: null })
      .where(eq(subscriptions.id, row.id));
    return false;
  }
  await resumePaused(row, database, client);
  return true;
}

export const pauseEndJob = defineJob({
  name: PAUSE_END_JOB,
  lane: "money",
  payload: payloadSchema,
  timeoutMs: 60_000,
  maxAttempts: 12,
  async handler(payload) {
    await endPause(payload);
  },
});
