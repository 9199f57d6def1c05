/**
 * How long the queue's and the webhooks' rows are kept (README, "Data kept"). Both tables only grew:
 * every job ever run with its payload and last error, every webhook with its raw body. The
 * dedupe keys and event ids (job_dedupe_keys, webhook_event_ids) are what deduplication needs,
 * and are kept far longer than the rows they came from.
 */
import { and, isNotNull, lt, sql } from "drizzle-orm";
import type { Database } from "../db";
import { jobDedupeKeys, jobs, webhookEventIds, webhookEvents } from "../db/schema";

const DAY = 24 * 60 * 60 * 1000;

export const RETENTION_DAYS = {
  /** A job that finished: its row (payload, timing) is for looking into what just happened. */
  completedJobs: 30,
  /** A job that failed for good stays on /admin/jobs to be retried or discarded. */
  failedJobs: 90,
  /** A processed webhook's raw body: replaying it from /admin-fix-subscription, reconciling. */
  webhookBodies: 90,
  /** Dedupe keys and webhook event ids: far past any redelivery or resubmission. */
  dedupe: 400,
} as const;

/** Deletes what is past its retention; how many rows of each went. */
export async function pruneQueueAndWebhooks(database: Database, now = new Date()) {
  const before = (days: number) => new Date(now.getTime() - days * DAY);
  const completed = await database
    .delete(jobs)
    .where(lt(jobs.completedAt, before(RETENTION_DAYS.completedJobs)))
    .returning({ id: jobs.id });
  const failed = await database
    .delete(jobs)
    .where(and(isNotNull(jobs.failedAt), lt(jobs.failedAt, before(RETENTION_DAYS.failedJobs))))
    .returning({ id: jobs.id });
  const webhooks = await database
    .delete(webhookEvents)
    .where(lt(webhookEvents.processedAt, before(RETENTION_DAYS.webhookBodies)))
    .returning({ id: webhookEvents.eventId });
  // A key whose job is still waiting (a schedule far ahead) stays, however old.
  const keys = await database
    .delete(jobDedupeKeys)
    .where(
      and(
        lt(jobDedupeKeys.createdAt, before(RETENTION_DAYS.dedupe)),
        sql`not exists (select 1 from ${jobs} where ${jobs.dedupeKey} = ${jobDedupeKeys.key})`,
      ),
    )
    .returning({ key: jobDedupeKeys.key });
  const ids = await database
    .delete(webhookEventIds)
    .where(
      and(
        lt(webhookEventIds.receivedAt, before(RETENTION_DAYS.dedupe)),
        sql`not exists (select 1 from ${webhookEvents} where ${webhookEvents.eventId} = ${webhookEventIds.eventId})`,
      ),
    )
    .returning({ id: webhookEventIds.eventId });
  return {
    completedJobs: completed.length,
    failedJobs: failed.length,
    webhookBodies: webhooks.length,
    dedupeKeys: keys.length,
    webhookIds: ids.length,
  };
}
