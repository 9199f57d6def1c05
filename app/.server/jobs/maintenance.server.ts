import { logger } from "../logger";
import { pruneExpiredSecurityRows } from "../security/rate-limit.server";
import { type Executor, enqueueJob } from "./queue.server";

export const PRUNE_JOB = "maintenance.prune";

const HOUR = 60 * 60 * 1000;

/**
 * Queues the hourly prune for the hour after `now`. The dedupe key names the hour, so any number
 * of instances scheduling it add one job per hour between them.
 */
export async function schedulePrune(executor: Executor, now = new Date()): Promise<void> {
  const next = new Date(Math.floor(now.getTime() / HOUR) * HOUR + HOUR);
  await enqueueJob(executor, {
    kind: PRUNE_JOB,
    dedupeKey: `${PRUNE_JOB}:${next.toISOString()}`,
    runAt: next,
    maxAttempts: 3,
  });
}

/** The job: prunes, then schedules the next run (also done at start-up, in case this chain broke). */
export async function runPrune(executor: Executor): Promise<void> {
  const pruned = await pruneExpiredSecurityRows();
  if (pruned.rateLimitHits + pruned.oneTimeTokens > 0)
    logger().info(pruned, "pruned expired rate-limit counters and one-time tokens");
  await schedulePrune(executor);
}
