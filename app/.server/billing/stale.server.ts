/**
 * Our mirror follows Razorpay through webhooks; if they stop arriving (a webhook URL changed, a
 * secret rotated, an outage longer than Razorpay's day of retries), an `active` subscription would
 * stay Pro for ever here, and a halted one the customer reactivated would stay Free (issue 32,
 * "also close"). Once an hour, every running subscription whose next charge is more than a day
 * past, and that nothing has brought up to date for a day, is read from Razorpay again (a resync
 * job, at most one per subscription per day).
 *
 * A checkout is another case (issue 53, finding 15): a subscription stays "created" here until the
 * checkout's confirmation or a webhook says it was paid. If neither comes (the browser closed
 * before the handler answered, and the webhooks are lost), nothing else would ask, and the buyer
 * would have paid for nothing. So a "created" one younger than a day is also read again (with its
 * payments), at growing intervals: see `checkoutsToAsk`.
 */
import { checkoutOpen, statusesWhere, SUBSCRIPTION_STATUSES } from "~/lib/subscription-state";
import { and, gt, inArray, lt, or, sql } from "drizzle-orm";
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
        // Razorpay charges it by a date, or it waits on a failed charge.
        inArray(
          subscriptions.status,
          statusesWhere((rules) => rules.charges),
        ),
        lt(subscriptions.syncedAt, dayAgo),
        or(
          lt(sql`coalesce(${subscriptions.chargeAt}, ${subscriptions.currentEnd})`, dayAgo),
          // Halted waits on the customer, not on a date: read it again once a day.
          inArray(
            subscriptions.status,
            statusesWhere((rules) => rules.dunning === "halted"),
          ),
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

/** Queues a resync of each checkout that may have been paid unseen; returns how many were queued. */
export async function queueCheckoutResyncs(executor: Executor, now = new Date()): Promise<number> {
  let queued = 0;
  for (const row of await checkoutsToAsk(executor, now)) {
    // Named for the sync it follows: instances and hours that find it unchanged queue it once.
    const added = await enqueue(
      executor,
      resyncJob,
      { providerSubscriptionId: row.providerId },
      { dedupeKey: `stale-checkout:${row.id}:${row.syncedAt.toISOString()}` },
    );
    if (added) queued += 1;
  }
  return queued;
}

/** A checkout is asked about no sooner than this after it was opened or last read. */
const CHECKOUT_QUIET_MS = 30 * 60 * 1000;

/**
 * Checkouts ("created") opened within the last day and not read for CHECKOUT_QUIET_MS, nor for as
 * long as they had waited when last read: the interval doubles (about 30 min, 1 h, 2 h … 16 h),
 * so a paid one is found within the hour while an abandoned one, the common case, costs a handful
 * of Razorpay reads rather than one an hour. Older ones are taken as abandoned and left (a new
 * checkout reuses or cancels them); the customer's "Check with Razorpay" and the admin's resync
 * still reach any.
 */
async function checkoutsToAsk(executor: Executor, now: Date) {
  return executor
    .select({
      id: subscriptions.id,
      providerId: subscriptions.providerSubscriptionId,
      syncedAt: subscriptions.syncedAt,
    })
    .from(subscriptions)
    .where(
      and(
        inArray(subscriptions.status, SUBSCRIPTION_STATUSES.filter(checkoutOpen)),
        gt(subscriptions.createdAt, new Date(now.getTime() - DAY)),
        lt(subscriptions.syncedAt, new Date(now.getTime() - CHECKOUT_QUIET_MS)),
        sql`${subscriptions.syncedAt} - ${subscriptions.createdAt}
              <= ${now.toISOString()}::timestamptz - ${subscriptions.syncedAt}`,
      ),
    )
    .orderBy(subscriptions.syncedAt)
    .limit(PER_RUN);
}
