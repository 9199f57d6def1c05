/**
 * A second subscription for someone already on Pro (two tabs that both paid, an old checkout page
 * paid late, one made in Razorpay's dashboard) would charge twice for one account. Once it is
 * authorised it is cancelled at once, what it charged is refunded (a money-lane refund with a key
 * per payment), and the customer gets one mail saying so.
 */
import { STATUS, STATUS_RULES } from "~/lib/subscription-state";
import { cancelAtRazorpay } from "./cancel-at-razorpay.server";
import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { type Database, db as defaultDb, type Executor } from "../db";
import { subscriptions, type SubscriptionRow } from "../db/schema";
import { defineJob, enqueue } from "../jobs/define";
import { PermanentJobError } from "../jobs/worker.server";
import { queueBillingMail } from "./notify.server";
import { recordPayment } from "./payments.server";
import { razorpay } from "./provider.server";
import type { RazorpayClient } from "./razorpay/client";
import { queueRefund, refundableLeft } from "./refunds.server";
import { applyProviderSubscription, markEnding } from "./subscriptions.server";

export const CANCEL_DUPLICATE_JOB = "billing.cancel-duplicate";

/** A subscription that charges, or will. */
const charging = (row: Pick<SubscriptionRow, "status">) => STATUS_RULES[row.status].renews;

type Candidate = Pick<
  SubscriptionRow,
  "id" | "userId" | "status" | "createdAt" | "replacesSubscriptionId"
>;

/** The older subscription that `row` duplicates, if any (a switch is not a duplicate). */
export function duplicated(row: Candidate, others: readonly Candidate[]): Candidate | null {
  if (!row.userId || row.replacesSubscriptionId) return null;
  if (!charging(row)) return null;
  return (
    others.find(
      (other) =>
        other.id !== row.id &&
        other.replacesSubscriptionId !== row.id &&
        charging(other) &&
        other.createdAt < row.createdAt,
    ) ?? null
  );
}

/** Runs after a subscription is synced: queue the clean-up if it duplicates an older one. */
export async function guardAgainstDuplicate(
  executor: Executor,
  row: SubscriptionRow,
): Promise<void> {
  if (!row.userId || row.replacesSubscriptionId) return;
  if (!charging(row)) return;
  const others = await executor
    .select({
      id: subscriptions.id,
      userId: subscriptions.userId,
      status: subscriptions.status,
      createdAt: subscriptions.createdAt,
      replacesSubscriptionId: subscriptions.replacesSubscriptionId,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, row.userId), ne(subscriptions.id, row.id)));
  if (!duplicated(row, others)) return;
  await enqueue(
    executor,
    cancelDuplicateJob,
    { subscriptionId: row.id },
    { dedupeKey: `duplicate:${row.id}` },
  );
}

/** The job: cancel the duplicate now, refund every payment it took, mail the customer once. */
export async function cancelDuplicate(
  subscriptionId: string,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<{ refunded: string[] }> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const [row] = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (!row?.userId) throw new PermanentJobError(`no subscription ${subscriptionId}`);
  const userId = row.userId;
  const others = await database
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), ne(subscriptions.id, row.id)));
  // Checked again with today's data: the older one may have ended since this was queued.
  const fresh = await client.fetchSubscription(row.providerSubscriptionId);
  if (!duplicated({ ...row, status: fresh.status as SubscriptionRow["status"] }, others)) {
    if (fresh.status !== STATUS.cancelled) return { refunded: [] };
  }
  const readAt = new Date();
  const cancelled =
    fresh.status === STATUS.cancelled
      ? fresh
      : await cancelAtRazorpay(database, client, row, { reason: "duplicate", atCycleEnd: false });
  await database.transaction(async (tx) => {
    await applyProviderSubscription(tx, cancelled, readAt);
    // It grants nothing from now on, before its refunds are made (issue 32).
    await markEnding(tx, row.id, "duplicate");
  });

  // What it charged, as Razorpay has it (a charge's webhook may not have arrived yet).
  const refunded: string[] = [];
  for (const invoice of await client.listInvoices(row.providerSubscriptionId)) {
    if (!invoice.payment_id) continue;
    const payment = await client.fetchPayment(invoice.payment_id);
    await database.transaction(async (tx) => {
      await recordPayment(
        tx,
        payment,
        row,
        invoice.billing_end ? new Date(invoice.billing_end * 1000) : null,
      );
      if (payment.status !== "captured" && payment.status !== "refunded") return;
      // What is left here: Razorpay's refunds (recorded just above) and any an operator has
      // already asked for. Razorpay's minimum refund is ₹1.
      const left = (await refundableLeft(tx, payment.id)) ?? 0;
      if (left < 100) return;
      await queueRefund(tx, {
        paymentId: payment.id,
        amountPaise: left,
        reason: "Second subscription cancelled: this account already had one",
        key: `rf_dup_${payment.id}`,
        actor: { id: null, email: "system" },
        targetUserId: userId,
      });
      refunded.push(payment.id);
    });
  }
  await queueBillingMail(database, "duplicate-cancelled", row.id, "cancelled");
  return { refunded };
}

/** A duplicate subscription: cancel and refund it (money lane). */
export const cancelDuplicateJob = defineJob({
  name: CANCEL_DUPLICATE_JOB,
  lane: "money",
  payload: z.object({ subscriptionId: z.string().min(1).max(100) }),
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler(payload) {
    await cancelDuplicate(payload.subscriptionId);
  },
});
