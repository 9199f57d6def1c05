/**
 * What the cancellation flow does for the business (issue 59, point 1), for the cockpit and
 * /admin/retention: why people leave, offers shown, taken and declined, and the customers saved:
 * still paying 90 days after, and the monthly revenue they bring today.
 *
 * Taken: a pause (recorded when it is made), or a yearly plan or a coupon's price authorised at
 * checkout after the visit (read from the subscription that replaces the visited one, so a
 * checkout opened and abandoned is not a save).
 */
import { and, eq, gte, inArray, isNotNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { CANCEL_REASONS, type CancelReason } from "~/lib/cancel-flow";
import type { Currency, Money } from "~/lib/money";
import { findPlan, planPriceIn } from "~/lib/plans";
import { STATUS_RULES, statusesWhere } from "~/lib/subscription-state";
import { db as defaultDb, type Executor } from "../db";
import { cancelFlowVisits, subscriptions } from "../db/schema";

const DAY_MS = 86_400_000;
/** The window of the counts. */
export const RETENTION_WINDOW_DAYS = 90;
/** A save counts as lasting when the customer still pays this long after it. */
export const SAVED_FOR_DAYS = 90;

export interface RetentionStats {
  windowDays: number;
  /** Visits to the flow in the window: with an offer shown, and without. */
  opened: number;
  shown: number;
  taken: number;
  declined: number;
  /** Cancelled where no offer applied. */
  cancelledWithoutOffer: number;
  reasons: { reason: CancelReason; count: number }[];
  /** Given no reason, of those who cancelled. */
  noReason: number;
  /** Saves made at least SAVED_FOR_DAYS ago, and how many of those customers still pay. */
  savedLongAgo: number;
  stillPaying: number;
  /** What the saved customers who pay today bring per month, per currency (list prices). */
  mrrSaved: Money[];
}

interface VisitFacts {
  id: string;
  subscriptionId: string;
  userId: string | null;
  shownAt: Date;
  offer: string | null;
  outcome: string | null;
  reason: CancelReason | null;
  decidedAt: Date | null;
}

/** Whether a visit's offer was taken: a pause made, or the replacing subscription authorised. */
async function takenVisits(executor: Executor, visits: VisitFacts[]): Promise<Set<string>> {
  const taken = new Set(visits.filter((v) => v.outcome === "paused").map((v) => v.id));
  const started = visits.filter((v) => v.outcome === "switch-started");
  if (started.length === 0) return taken;
  const replacing = await executor
    .select({
      replaces: subscriptions.replacesSubscriptionId,
      status: subscriptions.status,
      createdAt: subscriptions.createdAt,
    })
    .from(subscriptions)
    .where(
      inArray(
        subscriptions.replacesSubscriptionId,
        started.map((v) => v.subscriptionId),
      ),
    );
  for (const visit of started) {
    const authorised = replacing.some(
      (row) =>
        row.replaces === visit.subscriptionId &&
        row.createdAt >= visit.shownAt &&
        STATUS_RULES[row.status].started,
    );
    if (authorised) taken.add(visit.id);
  }
  return taken;
}

export async function retentionStats(
  executor: Executor = defaultDb(),
  now = new Date(),
): Promise<RetentionStats> {
  const since = new Date(now.getTime() - RETENTION_WINDOW_DAYS * DAY_MS);
  const visited = alias(subscriptions, "visited");
  const select = {
    id: cancelFlowVisits.id,
    subscriptionId: cancelFlowVisits.subscriptionId,
    userId: visited.userId,
    shownAt: cancelFlowVisits.shownAt,
    offer: cancelFlowVisits.offer,
    outcome: cancelFlowVisits.outcome,
    reason: cancelFlowVisits.reason,
    decidedAt: cancelFlowVisits.decidedAt,
  };
  const recent: VisitFacts[] = await executor
    .select(select)
    .from(cancelFlowVisits)
    .innerJoin(visited, eq(visited.id, cancelFlowVisits.subscriptionId))
    .where(gte(cancelFlowVisits.shownAt, since));
  // Every save ever made (for "still paying" and MRR): visits that led somewhere.
  const leading: VisitFacts[] = await executor
    .select(select)
    .from(cancelFlowVisits)
    .innerJoin(visited, eq(visited.id, cancelFlowVisits.subscriptionId))
    .where(
      and(
        isNotNull(cancelFlowVisits.decidedAt),
        inArray(cancelFlowVisits.outcome, ["paused", "switch-started"]),
      ),
    );
  const takenRecent = await takenVisits(executor, recent);
  const takenEver = await takenVisits(executor, leading);
  const saves = leading.filter((visit) => takenEver.has(visit.id));

  const savedUsers = [...new Set(saves.map((v) => v.userId).filter((id) => id !== null))];
  const paying = savedUsers.length
    ? await executor
        .select({
          userId: subscriptions.userId,
          planId: subscriptions.planId,
          currency: subscriptions.currency,
        })
        .from(subscriptions)
        .where(
          and(
            inArray(subscriptions.userId, savedUsers),
            inArray(
              subscriptions.status,
              statusesWhere((rules) => rules.paying),
            ),
          ),
        )
    : [];
  const payingUsers = new Set(paying.map((row) => row.userId));
  const savedLongAgo = saves.filter(
    (v) => v.decidedAt && v.decidedAt.getTime() <= now.getTime() - SAVED_FOR_DAYS * DAY_MS,
  );
  const mrr = new Map<Currency, number>();
  for (const row of paying) {
    const plan = findPlan(row.planId);
    if (!plan?.billingCycle) continue;
    const price = planPriceIn(plan, row.currency);
    const monthly = plan.billingCycle === "yearly" ? Math.round(price / 12) : price;
    mrr.set(row.currency, (mrr.get(row.currency) ?? 0) + monthly);
  }

  const cancelled = recent.filter((v) => v.outcome === "cancelled");
  const reasonCount = new Map<CancelReason, number>();
  for (const visit of recent)
    if (visit.reason) reasonCount.set(visit.reason, (reasonCount.get(visit.reason) ?? 0) + 1);
  return {
    windowDays: RETENTION_WINDOW_DAYS,
    opened: recent.length,
    shown: recent.filter((v) => v.offer !== null).length,
    taken: recent.filter((v) => takenRecent.has(v.id)).length,
    declined: cancelled.filter((v) => v.offer !== null).length,
    cancelledWithoutOffer: cancelled.filter((v) => v.offer === null).length,
    reasons: CANCEL_REASONS.map((reason) => ({ reason, count: reasonCount.get(reason) ?? 0 }))
      .filter((row) => row.count > 0)
      .sort((a, b) => b.count - a.count),
    noReason: cancelled.filter((v) => v.reason === null).length,
    savedLongAgo: savedLongAgo.length,
    stillPaying: savedLongAgo.filter((v) => v.userId && payingUsers.has(v.userId)).length,
    mrrSaved: [...mrr].map(([currency, amount]) => ({ amount, currency })),
  };
}
