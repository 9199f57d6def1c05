/**
 * Our mirror of Razorpay subscriptions. Every change comes from a verified webhook or a fetch
 * ("resync"); a read older than the one stored never overwrites it.
 */
import { type Buyer, ofBuyer } from "./buyer";
import { queueSeatTrim } from "../teams/trim-queue";
import { and, desc, eq, inArray, isNull, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import { type Currency, isCurrency } from "~/lib/money";
import { isPaidPlanId } from "~/lib/plans";
import { type Database, db as defaultDb, type Executor } from "../db";
import {
  type SubscriptionEndReason,
  subscriptions,
  type SubscriptionRow,
  GRANTS_NOTHING_END_REASONS,
  organization as organizations,
  providerPlans,
  user as users,
} from "../db/schema";
import { planIdForProviderPlan } from "./plans.server";
import type { RazorpaySubscription, SubscriptionStatus } from "./razorpay/types";
import { STATUS, STATUS_RULES, statusesWhere } from "~/lib/subscription-state";

const toDate = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? null : new Date(seconds * 1000);

/** Statuses in which a subscription still runs (and may charge, or resume). */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = statusesWhere((rules) => rules.runs);

/**
 * Statuses in which Razorpay may still charge a subscription: what must be cancelled there when
 * it has to end at once (an account deleted, a refunded period).
 */
export const MAY_CHARGE_STATUSES: readonly SubscriptionStatus[] = statusesWhere(
  (rules) => rules.mayCharge,
);

/**
 * Applies a subscription as Razorpay reported it at `readAt`. Unknown subscriptions are adopted
 * from the notes we set when creating them (user_id, plan_id). Returns the stored row, or null
 * when the subscription is not one of ours.
 */
export async function applyProviderSubscription(
  executor: Executor,
  entity: RazorpaySubscription,
  readAt: Date,
): Promise<SubscriptionRow | null> {
  const existing = await subscriptionByProviderId(entity.id, executor);
  const mappedPlan = await planIdForProviderPlan(entity.plan_id, executor as Database);
  const planId =
    mappedPlan ??
    existing?.planId ??
    (isPaidPlanId(entity.notes.plan_id) ? entity.notes.plan_id : null);
  const fields = {
    providerPlanId: entity.plan_id,
    status: entity.status,
    currentStart: toDate(entity.current_start),
    currentEnd: toDate(entity.current_end),
    chargeAt: toDate(entity.charge_at),
    startAt: toDate(entity.start_at),
    endedAt: toDate(entity.ended_at),
    paidCount: entity.paid_count,
    seats: entity.quantity ?? 1,
    authAttempts: entity.auth_attempts ?? 0,
    shortUrl: entity.short_url ?? null,
    hasScheduledChanges: entity.has_scheduled_changes ?? false,
    pausedAt: entity.status === STATUS.paused ? toDate(entity.paused_at ?? null) : null,
    pausedBy: entity.status === STATUS.paused ? (entity.pause_initiated_by ?? null) : null,
    // Known once authorised; an entity without it keeps what was read before.
    ...(entity.payment_method ? { paymentMethod: entity.payment_method } : {}),
    syncedAt: readAt,
    ...(planId ? { planId } : {}),
    // A cancellation we asked for shows at Razorpay only as "a change is scheduled".
    ...(entity.has_scheduled_changes ? {} : { cancelAtCycleEnd: false }),
  };
  // Cancelled: the reason we asked for it by (if we did) becomes its end reason, unless one is
  // recorded already (cancel-at-razorpay.server.ts).
  const endedFields =
    entity.status === STATUS.cancelled
      ? {
          endReason: sql`coalesce(${subscriptions.endReason}, ${subscriptions.pendingEndReason})`,
        }
      : {};

  if (!existing) {
    // A person's (notes.user_id), or a team's seats (notes.team_id: nobody's own, issue 37).
    const teamId = entity.notes.team_id;
    const userId = teamId ? undefined : entity.notes.user_id;
    if ((!userId && !teamId) || !planId) return null;
    const [owner] = userId
      ? await executor.select({ id: users.id }).from(users).where(eq(users.id, userId))
      : [];
    const [team] = teamId
      ? await executor
          .select({ id: organizations.id })
          .from(organizations)
          .where(eq(organizations.id, teamId))
      : [];
    await executor
      .insert(subscriptions)
      .values({
        providerSubscriptionId: entity.id,
        userId: owner ? owner.id : null,
        teamId: team ? team.id : null,
        planId,
        currency: await currencyOfPlan(executor, entity),
        ...fields,
      })
      .onConflictDoNothing({ target: subscriptions.providerSubscriptionId });
  } else {
    await executor
      .update(subscriptions)
      .set({ ...fields, ...endedFields })
      .where(
        and(
          eq(subscriptions.providerSubscriptionId, entity.id),
          lte(subscriptions.syncedAt, readAt),
        ),
      );
  }
  const stored = await subscriptionByProviderId(entity.id, executor);
  // Whatever changed a team's subscription (a webhook, a resync, a command), its seats are
  // checked against what it pays for, now and when its period or first charge comes (finding 1).
  if (stored?.teamId)
    await queueSeatTrim(executor, stored.teamId, [stored.currentEnd, stored.chargeAt], readAt);
  return stored;
}

/**
 * Records why a subscription ends (or null: it runs on after all). A reason that means its time
 * was never paid (a duplicate, a refunded period, a halt) stays: a later "the customer cancelled"
 * must not give that time back.
 */
export async function markEnding(
  executor: Executor,
  subscriptionId: string,
  reason: SubscriptionEndReason | null,
): Promise<void> {
  await executor
    .update(subscriptions)
    // The reason is recorded (or, null, the cancellation was undone): none is pending any more,
    // so a later cancellation made elsewhere (the UPI app) is not given this one's reason.
    .set({ endReason: reason, pendingEndReason: null })
    .where(
      and(
        eq(subscriptions.id, subscriptionId),
        or(
          isNull(subscriptions.endReason),
          notInArray(subscriptions.endReason, [...GRANTS_NOTHING_END_REASONS]),
        ),
      ),
    );
}

/** A user's subscriptions, those `only` admits when given, newest first. */
function userSubscriptions(userId: string, database: Database, only?: SQL) {
  return database
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), only))
    .orderBy(desc(subscriptions.createdAt));
}

export async function subscriptionsOf(
  userId: string,
  database: Database = defaultDb(),
): Promise<SubscriptionRow[]> {
  return userSubscriptions(userId, database);
}

/** A buyer's subscriptions, newest first: a person's own, or a team's. */
export async function subscriptionsOfBuyer(
  buyer: Buyer,
  database: Database = defaultDb(),
): Promise<SubscriptionRow[]> {
  if (buyer.kind === "person") return userSubscriptions(buyer.userId, database);
  return database
    .select()
    .from(subscriptions)
    .where(ofBuyer(buyer))
    .orderBy(desc(subscriptions.createdAt));
}

export async function subscriptionByProviderId(
  providerSubscriptionId: string,
  database: Executor = defaultDb(),
): Promise<SubscriptionRow | null> {
  const [row] = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
  return row ?? null;
}

/**
 * The subscription the account page is about: the running one, else the newest that ended,
 * else an unpaid checkout. A scheduled switch's new subscription is shown beside it, not instead.
 */
export function primarySubscription<
  Row extends Pick<SubscriptionRow, "status" | "replacesSubscriptionId">,
>(rows: readonly Row[]): Row | null {
  const live = rows.filter(
    (row) => LIVE_STATUSES.includes(row.status) && row.replacesSubscriptionId === null,
  );
  if (live[0]) return live[0];
  const anyLive = rows.find((row) => LIVE_STATUSES.includes(row.status));
  if (anyLive) return anyLive;
  return rows.find((row) => STATUS_RULES[row.status].started) ?? null;
}

/** Why a subscription is set to end with its period when a switch replaces it. */
export const SWITCHED_PLAN = "switched plan";

/** A switch to another plan waiting for the current period to end. */
export function scheduledSwitch(
  rows: readonly SubscriptionRow[],
  current: SubscriptionRow | null,
): SubscriptionRow | null {
  if (!current) return null;
  return (
    rows.find(
      (row) => row.replacesSubscriptionId === current.id && STATUS_RULES[row.status].goodStanding,
    ) ?? null
  );
}

export async function liveSubscriptionsOf(
  userId: string,
  database: Database = defaultDb(),
): Promise<SubscriptionRow[]> {
  return userSubscriptions(userId, database, inArray(subscriptions.status, [...LIVE_STATUSES]));
}

/** Unpaid checkouts of a user (status created), newest first. */
export async function openCheckoutsOf(
  userId: string,
  database: Database = defaultDb(),
): Promise<SubscriptionRow[]> {
  return userSubscriptions(userId, database, eq(subscriptions.status, STATUS.created));
}

/**
 * What a new subscription charges in: its Razorpay plan's currency from our mapping (the
 * subscription entity names none), else the currency its checkout noted, else rupees.
 */
async function currencyOfPlan(
  executor: Executor,
  entity: Pick<RazorpaySubscription, "plan_id" | "notes">,
): Promise<Currency> {
  const [mapped] = await executor
    .select({ currency: providerPlans.currency })
    .from(providerPlans)
    .where(eq(providerPlans.providerPlanId, entity.plan_id));
  if (mapped) return mapped.currency;
  return isCurrency(entity.notes.currency) ? entity.notes.currency : "INR";
}
