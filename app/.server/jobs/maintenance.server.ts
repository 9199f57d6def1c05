import { queueCheckoutResyncs, queueStaleResyncs } from "../billing/stale.server";
import { logger } from "../logger";
import { pruneExpiredSecurityRows } from "../security/rate-limit.server";
import { db, type Executor } from "../db";
import { afterOwnSlot, chainPayload, nextSlot } from "./chain";
import { defineJob, enqueue } from "./define";
import { prunePersonalData } from "../privacy/retention.server";
import { pruneQueueAndWebhooks } from "./retention.server";

export const PRUNE_JOB = "maintenance.prune";

const HOUR = 60 * 60 * 1000;

/**
 * Queues the hourly prune for the hour after `now`. The dedupe key names the hour, so any number
 * of instances scheduling it add one job per hour between them.
 */
export async function schedulePrune(executor: Executor, after = new Date()): Promise<void> {
  const next = nextSlot(after, HOUR);
  await enqueue(
    executor,
    pruneJob,
    { at: next.toISOString() },
    { dedupeKey: `${PRUNE_JOB}:${next.toISOString()}`, runAt: next },
  );
}

/**
 * The job: prunes, queues a resync of subscriptions whose webhooks stopped (billing/stale), then
 * schedules the next run (also done at start-up, in case this chain broke).
 */
export async function runPrune(executor: Executor, after = new Date()): Promise<void> {
  const pruned = await pruneExpiredSecurityRows();
  if (pruned.rateLimitHits + pruned.oneTimeTokens > 0)
    logger().info(pruned, "pruned expired rate-limit counters and one-time tokens");
  const kept = await pruneQueueAndWebhooks(db());
  if (Object.values(kept).some((count) => count > 0))
    logger().info(kept, "pruned finished jobs and processed webhooks past their retention");
  const personal = await prunePersonalData(db());
  if (Object.values(personal).some((count) => count > 0))
    logger().info(personal, "deleted personal data past the privacy policy's retention");
  const resyncs = await queueStaleResyncs(executor);
  if (resyncs > 0) logger().warn({ resyncs }, "subscriptions not synced for a day: resyncing");
  // Most are checkouts left unpaid, the ordinary case: not a warning.
  const checkouts = await queueCheckoutResyncs(executor);
  if (checkouts > 0) logger().info({ checkouts }, "asking Razorpay about recent unpaid checkouts");
  await schedulePrune(executor, after);
}

/**
 * Hourly: expired rate-limit counters and one-time tokens, finished jobs and processed webhooks
 * past their retention, feedback and support conversations past the privacy policy's retention,
 * stale subscriptions (maintenance lane).
 */
export const pruneJob = defineJob({
  name: PRUNE_JOB,
  lane: "maintenance",
  payload: chainPayload,
  timeoutMs: 5 * 60_000,
  maxAttempts: 3,
  async handler({ at }) {
    await runPrune(db(), afterOwnSlot(at));
  },
});
