/**
 * What follows when Razorpay's state of a subscription is stored (resync.server.ts, after a
 * webhook or a resync): a switch's new subscription, once authorised, cancels the one it replaces
 * at that one's cycle end; a restarted Pro retires the halted subscription it replaces. Both call
 * Razorpay, so both are jobs. Apart from the subscriber's commands (manage.server.ts) so that the
 * arrows run one way: commands and webhooks → sync → these follow-ups.
 */
import { buyerOf, ofBuyer } from "./buyer";
import { STATUS_RULES, statusesWhere } from "~/lib/subscription-state";
import { cancelAtRazorpay } from "./cancel-at-razorpay.server";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { type Database, db as defaultDb, type Executor } from "../db";
import { subscriptions, type SubscriptionRow } from "../db/schema";
import { defineJob, enqueue } from "../jobs/define";
import { PermanentJobError } from "../jobs/worker.server";
import { queueBillingMail } from "./notify.server";
import { razorpay } from "./provider.server";
import type { RazorpayClient } from "./razorpay/client";
import {
  applyProviderSubscription,
  markEnding,
  subscriptionsOfBuyer,
  SWITCHED_PLAN,
} from "./subscriptions.server";

export const FINISH_SWITCH_JOB = "billing.finish-switch";
export const RETIRE_HALTED_JOB = "billing.retire-halted";

/** The database and Razorpay client to use instead of the process's own (tests pass theirs). */
export interface BillingOptions {
  database?: Database;
  client?: RazorpayClient;
}

type Options = BillingOptions;

/**
 * Runs after any subscription is synced: a switch's new subscription, once authorised, cancels
 * the one it replaces at that one's cycle end (as a job: it calls Razorpay).
 */
export async function afterSubscriptionSynced(
  executor: Executor,
  row: SubscriptionRow,
): Promise<void> {
  if (row.replacesSubscriptionId && STATUS_RULES[row.status].goodStanding) {
    await enqueue(
      executor,
      finishSwitchJob,
      { subscriptionId: row.id },
      { dedupeKey: `switch:${row.id}` },
    );
  }
  // A restarted Pro replaces a halted subscription: cancel that one, or a new card entered on its
  // old payment page would charge a second time.
  // The same for a team's seats bought again (issue 37).
  const buyer = buyerOf(row);
  if (STATUS_RULES[row.status].paidUp && buyer && !row.replacesSubscriptionId) {
    const halted = await executor
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        and(
          ofBuyer(buyer),
          inArray(
            subscriptions.status,
            statusesWhere((rules) => rules.dunning === "halted"),
          ),
        ),
      );
    if (halted.some((other) => other.id !== row.id))
      await enqueue(
        executor,
        retireHaltedJob,
        { subscriptionId: row.id },
        { dedupeKey: `retire-halted:${row.id}` },
      );
  }
}

/** The payload of both jobs here, as the worker has already checked it against the schema. */
const subscriptionPayload = z.object({ subscriptionId: z.string().min(1).max(100) });
type SubscriptionPayload = z.output<typeof subscriptionPayload>;

export async function finishSwitch(
  { subscriptionId: id }: SubscriptionPayload,
  options: Options = {},
): Promise<void> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const [next] = await database.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!next?.replacesSubscriptionId) throw new PermanentJobError(`no switch ${id}`);
  // Withdrawn (or cancelled outright) before this job ran: the current plan stays as it is.
  if (!STATUS_RULES[next.status].goodStanding) return;
  const [old] = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, next.replacesSubscriptionId));
  if (!old) throw new PermanentJobError(`replaced subscription of ${id} is gone`);
  if (!old.cancelAtCycleEnd && STATUS_RULES[old.status].paying) {
    const readAt = new Date();
    const entity = await cancelAtRazorpay(database, client, old, {
      reason: "switched",
      atCycleEnd: true,
    });
    await database.transaction(async (tx) => {
      await applyProviderSubscription(tx, entity, readAt);
      await tx
        .update(subscriptions)
        .set({ cancelAtCycleEnd: !STATUS_RULES[entity.status].final, cancelReason: SWITCHED_PLAN })
        .where(eq(subscriptions.id, old.id));
      await markEnding(tx, old.id, "switched");
    });
  }
  await queueBillingMail(database, "plan-change", next.id, "scheduled");
}

/** The job: cancel the buyer's halted subscriptions once a newer one is active. */
export async function retireHalted(
  { subscriptionId: id }: SubscriptionPayload,
  options: Options = {},
): Promise<number> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const [active] = await database.select().from(subscriptions).where(eq(subscriptions.id, id));
  const buyer = active ? buyerOf(active) : null;
  if (!active || !buyer) throw new PermanentJobError(`no subscription ${id}`);
  const halted = (await subscriptionsOfBuyer(buyer, database)).filter(
    (row) => STATUS_RULES[row.status].dunning === "halted" && row.id !== active.id,
  );
  let cancelled = 0;
  for (const row of halted) {
    // Halted here may be old news: the customer may have reactivated it (a new payment method,
    // charged at once) since the last webhook. Razorpay's word first; only a subscription still
    // halted there is cancelled, else what it says is recorded (issue 32, "also close").
    const fetchedAt = new Date();
    const current = await client.fetchSubscription(row.providerSubscriptionId);
    if (STATUS_RULES[current.status].dunning !== "halted") {
      await applyProviderSubscription(database, current, fetchedAt);
      continue;
    }
    const readAt = new Date();
    await applyProviderSubscription(
      database,
      await cancelAtRazorpay(database, client, row, { reason: "halted", atCycleEnd: false }),
      readAt,
    );
    await markEnding(database, row.id, "halted");
    cancelled += 1;
  }
  return cancelled;
}

/** A switch's new subscription is authorised: cancel the old one at its cycle end (money lane). */
export const finishSwitchJob = defineJob({
  name: FINISH_SWITCH_JOB,
  lane: "money",
  payload: subscriptionPayload,
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler(payload) {
    await finishSwitch(payload);
  },
});

/** A restarted Pro replaces a halted subscription: cancel the halted one (money lane). */
export const retireHaltedJob = defineJob({
  name: RETIRE_HALTED_JOB,
  lane: "money",
  payload: subscriptionPayload,
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler(payload) {
    await retireHalted(payload);
  },
});
