/**
 * Backups in the background: every BACKUP_INTERVAL_HOURS (a chained job, one per slot however
 * many instances schedule it), and at once when an admin asks ("Back up now").
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { db, type Executor } from "../db";
import { jobs } from "../db/schema";
import { env } from "../env";
import { afterOwnSlot, nextSlot } from "../jobs/chain";
import { defineJob, enqueue } from "../jobs/define";
import { BACKUP_TIME_LIMIT_MS, runBackup } from "./backup-runs.server";

export const BACKUP_JOB = "backup.run";

const HOUR = 60 * 60_000;

export const backupJob = defineJob({
  name: BACKUP_JOB,
  // One slot, beside the prune and roll-up: a backup never holds up money or mail.
  lane: "maintenance",
  payload: z.object({
    trigger: z.enum(["schedule", "admin"]),
    /** A scheduled run's slot (chain.ts). */
    at: z.iso.datetime().optional(),
  }),
  timeoutMs: BACKUP_TIME_LIMIT_MS,
  // A failed backup is recorded and shown; the next slot (or the admin) tries again.
  maxAttempts: 1,
  async handler({ trigger, at }, { signal }) {
    try {
      await runBackup(trigger, { signal });
    } finally {
      if (trigger === "schedule") await scheduleBackup(db(), afterOwnSlot(at));
    }
  },
});

/** Queues the next scheduled backup, when BACKUP_INTERVAL_HOURS asks for them. */
export async function scheduleBackup(executor: Executor, after = new Date()): Promise<void> {
  const { BACKUP_INTERVAL_HOURS: hours, BACKUP_DIR } = env();
  if (hours === 0 || !BACKUP_DIR) return;
  const next = nextSlot(after, hours * HOUR);
  await enqueue(
    executor,
    backupJob,
    { trigger: "schedule", at: next.toISOString() },
    { dedupeKey: `${BACKUP_JOB}:${next.toISOString()}`, runAt: next },
  );
}

/**
 * "Back up now": false when one asked for is still waiting or running. (Not a dedupe key: those
 * are kept for good, and a second backup asked for after the first has finished must run.)
 */
export async function requestBackup(executor: Executor): Promise<boolean> {
  const [pending] = await executor
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, BACKUP_JOB),
        isNull(jobs.completedAt),
        isNull(jobs.failedAt),
        sql`${jobs.payload}->>'trigger' = 'admin'`,
      ),
    )
    .limit(1);
  if (pending) return false;
  return enqueue(executor, backupJob, { trigger: "admin" });
}
