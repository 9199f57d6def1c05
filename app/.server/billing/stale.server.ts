/**
 * Our mirror follows Razorpay through webhooks; if they stop arriving (a webhook URL changed, a
 * secret rotated, an outage longer than Razorpay's day of retries), an `active` subscription would
 * stay Pro for ever here, and a halted one the customer reactivated would stay Free (issue 32,
 * "also close"). Once an hour, every running subscription whose next charge is more than a day
 * past, and that nothing has brought up to date for a day, is read from Razorpay again (a resync
 * job, at most one per subscription per day).
 */
import { and, inArray, lt, or, sql } from "drizzle-orm";
import { subscriptions } from "../db/schema";
import { enqueue } from "../jobs/define";
import type { Executor } from "../db";
import { resyncJob } from "./checkout.server";

const DAY = 24 * 60 * 60 * 1000;

/** At most this many a run: a backlog is worked off over the following hours. */
const PER_RUN = 200;

/** Queues a resync of each stale subscription; returns how many were queued. */
export async function queueStaleResyncs(executor: Executor, now = new Date()): Promise<number> {
  const dayAgo = new Date(now.getTime() - DAY);
  const stale = await executor
    .select({ id: subscriptions.id, providerId: subscriptions.providerSubscriptionId })
    .from(subscriptions)
    .where(
      and(
        inArray(subscriptions.status, ["authenticated", "active", "pending", "halted"]),
        lt(subscriptions.syncedAt, dayAgo),
        or(
          lt(sql`coalesce(${subscriptions.chargeAt}, ${subscriptions.currentEnd})`, dayAgo),
          // Halted waits on the customer, not on a date: read it again once a day.
          inArray(subscriptions.status, ["halted"]),
        ),
      ),
    )
    .orderBy(subscriptions.syncedAt)
    .limit(PER_RUN);
  const day = now.toISOString().slice(0, 10);
  let queued = 0;
  for (const row of stale) {
    const added = await enqueue(
      executor,
      resyncJob,
      { providerSubscriptionId: row.providerId },
      { dedupeKey: `stale-resync:${row.id}:${day}` },
    );
    if (added) queued += 1;
  }
  return queued;
}
