/**
 * A subscription grants time only for periods that are paid and not refunded (issue 32). When a
 * refund leaves the subscription's current period with nothing paid (a 7-day refund of the first
 * payment, a renewal refunded because it should not have been charged), the subscription ends
 * at once: it is marked `refunded` in the refund's own transaction, so it grants nothing from
 * that commit on, and a money-lane job cancels it at Razorpay so it charges nothing more. The
 * refund policy (content/legal/refund.md) promises exactly this.
 */
import { cancelAtRazorpay } from "./cancel-at-razorpay.server";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { type Database, db as defaultDb, type Executor } from "../db";
import {
  disputes,
  payments,
  refunds,
  type SubscriptionEndReason,
  subscriptions,
} from "../db/schema";
import { defineJob, enqueue } from "../jobs/define";
import { PermanentJobError } from "../jobs/worker.server";
import { razorpay } from "./provider.server";
import type { RazorpayClient } from "./razorpay/client";
import { applyProviderSubscription, markEnding, MAY_CHARGE_STATUSES } from "./subscriptions.server";

export const END_REFUNDED_JOB = "billing.end-refunded";

/**
 * A payment's period and the subscription's current one are the same period when their ends are
 * within a day: Razorpay's invoice billing_end and the subscription's current_end are the same
 * instant, give or take its clock.
 */
const SAME_PERIOD_MS = 86_400_000;

/**
 * What is left paid of the subscription's current period that `paymentId` paid for, once
 * `alsoRefunding` more paise of it are refunded; null when the payment is not for the current
 * period (an earlier one, a period unknown) or belongs to no subscription.
 */
export async function currentPeriodLeft(
  executor: Executor,
  paymentId: string,
  alsoRefunding = 0,
): Promise<{
  subscriptionId: string;
  providerSubscriptionId: string;
  status: (typeof subscriptions.$inferSelect)["status"];
  charges: number;
  leftPaise: number;
} | null> {
  const [paid] = await executor
    .select({
      subscriptionId: subscriptions.id,
      providerSubscriptionId: subscriptions.providerSubscriptionId,
      status: subscriptions.status,
      currentEnd: subscriptions.currentEnd,
      periodEnd: payments.periodEnd,
    })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(eq(payments.providerPaymentId, paymentId));
  if (!paid?.periodEnd || !paid.currentEnd) return null;
  if (Math.abs(paid.periodEnd.getTime() - paid.currentEnd.getTime()) > SAME_PERIOD_MS) return null;

  // What is left of every charge for this period: the payment's own refunded amount or the
  // processed refunds recorded for it, whichever is larger (either may be read first), and what
  // a lost dispute took back (a chargeback is money returned without a refund).
  // In parentheses: it is subtracted whole below.
  const refunded = sql<number>`(greatest(${payments.amountRefundedPaise}, coalesce((
    select sum(${refunds.amountPaise}) from ${refunds}
    where ${refunds.providerPaymentId} = ${payments.providerPaymentId}
      and ${refunds.status} = 'processed'), 0)) + coalesce((
    select sum(greatest(${disputes.amountDeductedMinor}, ${disputes.amountMinor})) from ${disputes}
    where ${disputes.providerPaymentId} = ${payments.providerPaymentId}
      and ${disputes.status} = 'lost'), 0))`;
  const [period] = await executor
    .select({
      charges: sql<number>`count(*)::int`,
      left: sql<number>`coalesce(sum(greatest(${payments.amountPaise} - ${refunded}, 0)), 0)::int`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.subscriptionId, paid.subscriptionId),
        inArray(payments.status, ["captured", "refunded"]),
        sql`abs(extract(epoch from ${payments.periodEnd} - ${paid.currentEnd.toISOString()}::timestamptz)) * 1000 <= ${SAME_PERIOD_MS}`,
      ),
    );
  return {
    subscriptionId: paid.subscriptionId,
    providerSubscriptionId: paid.providerSubscriptionId,
    status: paid.status,
    charges: Number(period?.charges ?? 0),
    leftPaise: Math.max(0, Number(period?.left ?? 0) - alsoRefunding),
  };
}

/** Why money for a period went back: a refund, or a dispute the bank decided for the customer. */
export type UnpaidBecause = Extract<SubscriptionEndReason, "refunded" | "dispute-lost">;

/**
 * After a refund or a lost dispute of `paymentId` is recorded: when no money is left for the
 * subscription's current period, mark it ended for that reason and queue its cancellation. False
 * when the period stays paid (a partial refund, one of two charges for the period, an earlier
 * period, a period unknown).
 */
export async function endUnpaidPeriod(
  executor: Executor,
  paymentId: string,
  reason: UnpaidBecause,
): Promise<boolean> {
  const period = await currentPeriodLeft(executor, paymentId);
  if (!period || period.charges === 0 || period.leftPaise > 0) return false;

  await markEnding(executor, period.subscriptionId, reason);
  if (MAY_CHARGE_STATUSES.includes(period.status))
    await enqueue(
      executor,
      endRefundedJob,
      { subscriptionId: period.subscriptionId, reason },
      { dedupeKey: `end-refunded:${period.subscriptionId}` },
    );
  return true;
}

/** After a refund: `endUnpaidPeriod` for the refund policy's reason. */
export function endRefundedPeriod(executor: Executor, paymentId: string): Promise<boolean> {
  return endUnpaidPeriod(executor, paymentId, "refunded");
}

/** The job: cancel at once, at Razorpay, a subscription whose current period was refunded. */
export async function cancelRefundedSubscription(
  subscriptionId: string,
  options: { database?: Database; client?: RazorpayClient; reason?: UnpaidBecause } = {},
): Promise<"cancelled" | "ended-already"> {
  const reason = options.reason ?? "refunded";
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const [row] = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (!row) throw new PermanentJobError(`no subscription ${subscriptionId}`);
  const fetchedAt = new Date();
  const fresh = await client.fetchSubscription(row.providerSubscriptionId);
  if (!MAY_CHARGE_STATUSES.includes(fresh.status)) {
    await applyProviderSubscription(database, fresh, fetchedAt);
    return "ended-already";
  }
  const readAt = new Date();
  const cancelled = await cancelAtRazorpay(database, client, row, { reason, atCycleEnd: false });
  await database.transaction(async (tx) => {
    await applyProviderSubscription(tx, cancelled, readAt);
    await markEnding(tx, row.id, reason);
  });
  return "cancelled";
}

export const endRefundedJob = defineJob({
  name: END_REFUNDED_JOB,
  lane: "money",
  // `reason` absent on jobs queued before disputes ended periods too: those were refunds.
  payload: z.object({
    subscriptionId: z.string().uuid(),
    reason: z.enum(["refunded", "dispute-lost"]).optional(),
  }),
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler(payload) {
    await cancelRefundedSubscription(payload.subscriptionId, { reason: payload.reason });
  },
});
