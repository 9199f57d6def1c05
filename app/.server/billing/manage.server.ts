/**
 * What a subscriber does on Account → Subscription: cancel at the end of the period, undo that,
 * and switch monthly ↔ yearly. Razorpay cannot change the plan of UPI or e-mandate
 * subscriptions, so a switch is a new subscription starting when the current period ends, and the
 * current one is cancelled at its cycle end once the new one is authorised.
 */
import { type Buyer, personBuyer } from "./buyer";
import { allows, STATE_RULES, STATUS_RULES } from "~/lib/subscription-state";
import { stateOfRow } from "./subscription-state.server";
import { cancelAtRazorpay } from "./cancel-at-razorpay.server";
import { eq, inArray, sql } from "drizzle-orm";
import { type PaidPlanId, planById } from "~/lib/plans";
import { type Database, db as defaultDb } from "../db";
import { member as members, subscriptions, type SubscriptionRow } from "../db/schema";
import { proOrder, startCheckout } from "./checkout.server";
import type { BillingOptions } from "./sync-reactions.server";
import { queueBillingMail } from "./notify.server";
import { razorpay } from "./provider.server";
import type { RazorpayClient } from "./razorpay/client";
import {
  applyProviderSubscription,
  markEnding,
  MAY_CHARGE_STATUSES,
  primarySubscription,
  scheduledSwitch,
  subscriptionsOf,
  subscriptionsOfBuyer,
} from "./subscriptions.server";
import { AppError } from "../http/errors";
import { resumeAtAfter, schedulePauseEnd } from "./pause-end.server";
import { resumePaused } from "./resume-paused.server";

type Options = BillingOptions;

/** The subscription the buyer manages: running (or paused) and not already ending. */
/** The buyer's running subscription (a person's own, or a team's seats), or a refusal. */
async function manageable(buyer: Buyer, database: Database) {
  const rows = await subscriptionsOfBuyer(buyer, database);
  const current = primarySubscription(rows);
  if (!current || !STATUS_RULES[current.status].manageable)
    throw new AppError("conflict", "There is no running subscription to change.");
  return { rows, current };
}

/**
 * Pause instead of cancel (issue 34, point 3; decision 0044): Razorpay stops charging now. Pro
 * runs to the end of the period already paid, then the account is on Free until it resumes. Only
 * a subscription that is active and not set to end pauses; pausing it again changes nothing.
 */
export async function pauseSubscription(
  userId: string,
  options: Options & {
    /**
     * A pause with an end (issue 59): it resumes by itself after this many billing cycles from
     * the end of the period paid (the cancellation step's offer, or the customer's choice). A
     * notice mail goes out before the charge that resuming brings.
     */
    resumeAfterCycles?: number;
  } = {},
): Promise<SubscriptionRow> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const { rows, current } = await manageable(personBuyer(userId), database);
  const state = stateOfRow(current);
  if (state === "paused" || state === "paused-in-upi-app") return current;
  if (!allows(state, "pause"))
    throw new AppError(
      "conflict",
      "Only a subscription that is paid up and not set to end can be paused.",
    );
  if (scheduledSwitch(rows, current))
    throw new AppError("conflict", "Stay on your plan first (withdraw the switch), then pause.");
  const readAt = new Date();
  const entity = await client.pauseSubscription(current.providerSubscriptionId);
  return database.transaction(async (tx) => {
    const row = await applyProviderSubscription(tx, entity, readAt);
    if (!row) throw new Error("paused subscription is not ours");
    const resumeAt = options.resumeAfterCycles
      ? resumeAtAfter(current, options.resumeAfterCycles)
      : null;
    if (resumeAt) {
      await tx.update(subscriptions).set({ resumeAt }).where(eq(subscriptions.id, row.id));
      await schedulePauseEnd(tx, row.id, resumeAt);
    }
    // The same key as the webhook's (webhooks.server.ts): one mail per pause.
    await queueBillingMail(tx, "paused", row.id, `paused:${entity.paused_at ?? readAt.getTime()}`);
    return { ...row, resumeAt };
  });
}

/**
 * Resumes a pause made here: charging starts again at the end of the period already paid (or at
 * once, if it has run out). A pause the customer made in their UPI app only they can resume,
 * there: Razorpay refuses it from us, so we say so instead of trying.
 */
export async function resumeSubscription(
  userId: string,
  options: Options = {},
): Promise<SubscriptionRow> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const current = primarySubscription(await subscriptionsOf(userId, database));
  const state = current ? stateOfRow(current) : null;
  if (!current || !state || !allows(state, "resume")) {
    if (current && state === "active") return current;
    if (state === "paused-in-upi-app")
      throw new AppError(
        "conflict",
        "You paused this subscription in your UPI app, and only you can resume it there: open the app's AutoPay mandates and resume it.",
      );
    throw new AppError("conflict", "There is no paused subscription to resume.");
  }
  return resumePaused(current, database, client);
}

/** Cancels a switch's new subscription now: it is only authorised, nothing was paid. */
export async function dropScheduledSwitch(
  rows: SubscriptionRow[],
  current: SubscriptionRow,
  database: Database,
  client: RazorpayClient,
): Promise<void> {
  const pendingSwitch = scheduledSwitch(rows, current);
  if (!pendingSwitch) return;
  const readAt = new Date();
  await applyProviderSubscription(
    database,
    await cancelAtRazorpay(database, client, pendingSwitch, {
      reason: "abandoned",
      atCycleEnd: false,
    }),
    readAt,
  );
  // Authorised, never charged: a withdrawn switch, not a customer who left.
  await markEnding(database, pendingSwitch.id, "abandoned");
}

export async function cancelAtPeriodEnd(
  buyer: Buyer,
  reason: string | null,
  options: Options = {},
): Promise<SubscriptionRow> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const { rows, current } = await manageable(buyer, database);
  if (current.cancelAtCycleEnd) {
    // Ending already because a switch replaces it: cancelling outright withdraws the switch, and
    // the subscription now ends for the buyer's reason.
    if (!scheduledSwitch(rows, current)) return current;
    await dropScheduledSwitch(rows, current, database, client);
    const readAt = new Date();
    return database.transaction(async (tx) => {
      const [row] = await tx
        .update(subscriptions)
        .set({ cancelReason: reason })
        .where(eq(subscriptions.id, current.id))
        .returning();
      await markEnding(tx, current.id, "customer");
      await queueBillingMail(tx, "cancelled", current.id, `requested:${readAt.getTime()}`);
      return row ?? current;
    });
  }
  const readAt = new Date();
  // Not charged yet (authorised for a later start): nothing was paid, so it ends now.
  // A paused one charges nothing more either way; it ends now, and Pro runs to the paid end.
  const entity = await cancelAtRazorpay(database, client, current, {
    reason: "customer",
    atCycleEnd: STATE_RULES[stateOfRow(current)].cancel?.at === "period-end",
  });
  const applied = await database.transaction(async (tx) => {
    const row = await applyProviderSubscription(tx, entity, readAt);
    if (!row) throw new Error("cancelled subscription is not ours");
    await tx
      .update(subscriptions)
      .set({ cancelAtCycleEnd: !STATUS_RULES[entity.status].final, cancelReason: reason })
      .where(eq(subscriptions.id, row.id));
    await markEnding(tx, row.id, "customer");
    // Keyed by the moment: cancelling again after an undo is a new change, mailed again.
    await queueBillingMail(tx, "cancelled", row.id, `requested:${readAt.getTime()}`);
    return { ...row, cancelAtCycleEnd: !STATUS_RULES[entity.status].final, cancelReason: reason };
  });
  // A switch waiting to start is dropped with it: cancelling means no more charges at all.
  await dropScheduledSwitch(rows, current, database, client);
  return applied;
}

/**
 * "Stay on my plan": the authorised switch is cancelled (nothing was paid for it) and the current
 * subscription, set to end because of the switch, renews again. One mail says so. Without a
 * switch (already withdrawn, a second submit) nothing changes and nothing is mailed.
 */
export async function withdrawSwitch(
  buyer: Buyer,
  options: Options = {},
): Promise<{ current: SubscriptionRow; withdrawn: SubscriptionRow | null }> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const { rows, current } = await manageable(buyer, database);
  const pendingSwitch = scheduledSwitch(rows, current);
  if (!pendingSwitch) return { current, withdrawn: null };
  // The switch goes first: while it is authorised, the switch job would set the current
  // subscription to end again.
  await dropScheduledSwitch(rows, current, database, client);
  let kept = current;
  if (current.cancelAtCycleEnd) {
    const readAt = new Date();
    const entity = await client.cancelScheduledChanges(current.providerSubscriptionId);
    kept = await database.transaction(async (tx) => {
      const applied = await applyProviderSubscription(tx, entity, readAt);
      const [row] = await tx
        .update(subscriptions)
        .set({ cancelAtCycleEnd: false, cancelReason: null })
        .where(eq(subscriptions.id, current.id))
        .returning();
      await markEnding(tx, current.id, null);
      return row ?? applied ?? current;
    });
  }
  // One withdrawal per switch: keyed by the switch's own subscription.
  await queueBillingMail(database, "switch-withdrawn", pendingSwitch.id, "withdrawn");
  return { current: kept, withdrawn: pendingSwitch };
}

/**
 * Keeps the current subscription running past its period. When it ends because of a scheduled
 * switch, keeping it is withdrawing the switch (otherwise both would charge).
 */
export async function undoCancellation(
  buyer: Buyer,
  options: Options = {},
): Promise<SubscriptionRow> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const { rows, current } = await manageable(buyer, database);
  if (!current.cancelAtCycleEnd) return current;
  if (scheduledSwitch(rows, current)) return (await withdrawSwitch(buyer, options)).current;
  const readAt = new Date();
  const entity = await client.cancelScheduledChanges(current.providerSubscriptionId);
  const row = await database.transaction(async (tx) => {
    const applied = await applyProviderSubscription(tx, entity, readAt);
    await tx
      .update(subscriptions)
      .set({ cancelAtCycleEnd: false, cancelReason: null })
      .where(eq(subscriptions.id, current.id));
    await markEnding(tx, current.id, null);
    // The buyer holds "Your subscription is cancelled": this one says it continues. Keyed by the
    // moment, so undoing a second cancellation later mails again, and a retried request once.
    await queueBillingMail(tx, "resumed", current.id, `resumed:${readAt.getTime()}`);
    return applied;
  });
  return { ...(row ?? current), cancelAtCycleEnd: false, cancelReason: null };
}

/**
 * A switch starts as a checkout of the other plan with a later start; the buyer authorises it
 * in Razorpay checkout. Returns the new (unpaid) subscription.
 */
export async function startPlanSwitch(
  user: { id: string; email: string },
  target: PaidPlanId,
  options: Options & {
    /**
     * The same plan again at this coupon's price from the end of the paid period: the
     * cancellation flow's discount (issue 59). Only with the same plan; the coupon's rules apply.
     */
    couponCode?: string | null;
    /**
     * The same plan paid another way (issue 59, point 3): a new card or UPI AutoPay mandate that
     * pays from the next charge; the current one ends at its period's end once it is authorised.
     */
    methodChange?: boolean;
  } = {},
): Promise<{ current: SubscriptionRow; next: SubscriptionRow }> {
  const database = options.database ?? defaultDb();
  const { rows, current } = await manageable(personBuyer(user.id), database);
  const samePlan = current.planId === target;
  const couponCode = samePlan && !options.methodChange ? (options.couponCode ?? null) : null;
  if (samePlan && !couponCode && !options.methodChange)
    throw new AppError("conflict", "You are already on that plan.");
  if (!samePlan && options.methodChange)
    throw new AppError("conflict", "A new payment method keeps the plan you are on.");
  if (scheduledSwitch(rows, current))
    throw new AppError("conflict", "A plan change is already scheduled.");
  const state = stateOfRow(current);
  if (state === "ending")
    throw new AppError("conflict", "Undo the cancellation first, then switch plans.");
  if (!allows(state, "switch") || !current.currentEnd)
    throw new AppError("conflict", "Plans can be switched once the current period is paid.");
  planById(target);
  const next = await startCheckout(
    proOrder(user, target, { replaces: current, couponCode }),
    options,
  );
  return { current, next };
}

/**
 * Before an account is deleted: every subscription that could still charge is cancelled at
 * Razorpay at once, or the deletion stops (nobody may be charged for an account that is gone).
 * So are the seats of every team the account is the last member of: the team goes with it
 * (`teams/hand-over.server.ts`), and nobody would be left to see or stop its charges.
 */
export async function cancelEverythingFor(userId: string, options: Options = {}): Promise<number> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  const rows = [
    ...(await subscriptionsOf(userId, database)),
    ...(await database
      .select()
      .from(subscriptions)
      .where(
        inArray(
          subscriptions.teamId,
          database
            .select({ id: members.organizationId })
            .from(members)
            .groupBy(members.organizationId)
            .having(sql`count(*) = 1 and bool_and(${members.userId} = ${userId})`),
        ),
      )),
  ];
  let cancelled = 0;
  for (const row of rows) {
    if (!MAY_CHARGE_STATUSES.includes(row.status)) continue;
    const readAt = new Date();
    try {
      await applyProviderSubscription(
        database,
        await cancelAtRazorpay(database, client, row, {
          reason: "account-closed",
          atCycleEnd: false,
        }),
        readAt,
      );
      await markEnding(database, row.id, "account-closed");
      cancelled += 1;
    } catch (error) {
      throw new Error(
        "Your subscription could not be cancelled at Razorpay, so the account was not deleted. Try again in a few minutes.",
        { cause: error },
      );
    }
  }
  return cancelled;
}
