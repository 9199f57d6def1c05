/**
 * Today's queue on /admin (issue 33, point 4): what the operator should act on today, each row
 * linked to its customer. Subscriptions in dunning with their next retry, payments that failed
 * today (India day), tickets waiting for the team (oldest first), open refund requests, dead jobs.
 */
import type { Currency } from "~/lib/money";
import { statusesWhere } from "~/lib/subscription-state";
import { and, asc, count, eq, gte, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { istDay, istDayStart } from "~/lib/india-time";
import { planLabel } from "~/lib/plans";
import { ticketDeadlines } from "~/lib/support";
import { type Database, db as defaultDb } from "../db";
import { jobs, payments, subscriptions, supportTickets, user as users } from "../db/schema";

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
  deadJobs: number;
}

export async function todayQueue(
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<TodayQueue> {
  const dayStart = istDayStart(istDay(now)) ?? now;
  const [dunning, failedToday, waiting, [waitingTotal], refundRequests, [dead]] = await Promise.all(
    [
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
    ],
  );
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
    deadJobs: dead?.value ?? 0,
  };
}
