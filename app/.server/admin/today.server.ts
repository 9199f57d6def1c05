/**
 * Today's queue on /admin (issue 33, point 4): what the operator should act on today, each row
 * linked to its customer. Subscriptions in dunning with their next retry, payments that failed
 * today (India day), tickets waiting for the team (oldest first), open refund requests, disputes
 * waiting for evidence (nearest deadline first), dead jobs.
 */
import type { Currency } from "~/lib/money";
import { statusesWhere } from "~/lib/subscription-state";
import { and, asc, count, eq, gte, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { istDay, istDayStart } from "~/lib/india-time";
import { planLabel } from "~/lib/plans";
import { ticketDeadlines } from "~/lib/support";
import { type Database, db as defaultDb } from "../db";
import {
  disputes,
  jobs,
  payments,
  subscriptions,
  supportTickets,
  user as users,
} from "../db/schema";
import { UNDECIDED_DISPUTE_STATUSES } from "~/lib/disputes";

/** Rows per list: the queue is a to-do list, not a report; the full lists are a link away. */
const ROWS = 10;

export interface TodayQueue {
  dunning: {
    subscriptionId: string;
    email: string | null;
    plan: string;
    nextRetryAt: Date | null;
    failedAttempts: number;
  }[];
  failedToday: {
    paymentId: string;
    email: string | null;
    amountPaise: number;
    currency: Currency;
    error: string | null;
    at: Date;
  }[];
  waiting: { number: number; subject: string; email: string; createdAt: Date; overdue: boolean }[];
  waitingTotal: number;
  refundRequests: { number: number; subject: string; email: string; createdAt: Date }[];
  /** Disputes not decided yet, the nearest evidence deadline first (issue 59, point 4). */
  disputes: {
    disputeId: string;
    email: string | null;
    amountMinor: number;
    currency: string;
    respondBy: Date | null;
    status: string;
  }[];
  deadJobs: number;
}

export async function todayQueue(
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<TodayQueue> {
  const dayStart = istDayStart(istDay(now)) ?? now;
  const [dunning, failedToday, waiting, [waitingTotal], refundRequests, [dead], open] =
    await Promise.all([
      database
        .select({
          subscriptionId: subscriptions.providerSubscriptionId,
          email: users.email,
          planId: subscriptions.planId,
          nextRetryAt: subscriptions.chargeAt,
          failedAttempts: subscriptions.authAttempts,
        })
        .from(subscriptions)
        .leftJoin(users, eq(users.id, subscriptions.userId))
        .where(
          inArray(
            subscriptions.status,
            statusesWhere((rules) => rules.dunning === "pending"),
          ),
        )
        .orderBy(sql`${subscriptions.chargeAt} asc nulls last`)
        .limit(ROWS),
      database
        .select({
          paymentId: payments.providerPaymentId,
          email: users.email,
          amountPaise: payments.amountPaise,
          currency: payments.currency,
          error: payments.errorDescription,
          at: payments.paidAt,
        })
        .from(payments)
        .leftJoin(users, eq(users.id, payments.userId))
        .where(and(eq(payments.status, "failed"), gte(payments.paidAt, dayStart)))
        .orderBy(asc(payments.paidAt))
        .limit(ROWS),
      database
        .select({
          number: supportTickets.number,
          subject: supportTickets.subject,
          email: users.email,
          createdAt: supportTickets.createdAt,
          firstReplyAt: supportTickets.firstReplyAt,
        })
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.userId))
        .where(eq(supportTickets.status, "open"))
        .orderBy(asc(supportTickets.createdAt))
        .limit(ROWS),
      database
        .select({ value: count() })
        .from(supportTickets)
        .where(eq(supportTickets.status, "open")),
      database
        .select({
          number: supportTickets.number,
          subject: supportTickets.subject,
          email: users.email,
          createdAt: supportTickets.createdAt,
        })
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.userId))
        .where(and(eq(supportTickets.category, "refund"), ne(supportTickets.status, "closed")))
        .orderBy(asc(supportTickets.createdAt))
        .limit(ROWS),
      database.select({ value: count() }).from(jobs).where(isNotNull(jobs.failedAt)),
      database
        .select({
          disputeId: disputes.providerDisputeId,
          email: users.email,
          amountMinor: disputes.amountMinor,
          currency: disputes.currency,
          respondBy: disputes.respondBy,
          status: disputes.status,
        })
        .from(disputes)
        .leftJoin(users, eq(users.id, disputes.userId))
        .where(inArray(disputes.status, [...UNDECIDED_DISPUTE_STATUSES]))
        .orderBy(sql`${disputes.respondBy} asc nulls last`)
        .limit(ROWS),
    ]);
  return {
    dunning: dunning.map(({ planId, ...row }) => ({ ...row, plan: planLabel(planId) })),
    failedToday,
    waiting: waiting.map(({ firstReplyAt, ...row }) => ({
      ...row,
      overdue: ticketDeadlines({ createdAt: row.createdAt, firstReplyAt, closedAt: null }, now)
        .replyOverdue,
    })),
    waitingTotal: waitingTotal?.value ?? 0,
    refundRequests,
    disputes: open,
    deadJobs: dead?.value ?? 0,
  };
}
