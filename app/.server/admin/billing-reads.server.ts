/**
 * What the operator reads about billing: the dashboard's numbers, the subscription list (paged,
 * filtered) and one customer's billing history. Nothing here writes.
 */
import { recurs } from "../billing/subscription-state.server";
import { statusesWhere } from "~/lib/subscription-state";
import { and, count, desc, eq, gte, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { istMonth, istMonthRange } from "~/lib/india-time";
import { findPlan, isPaidPlanId, monthlyValuePaise, type PaidPlanId } from "~/lib/plans";
import { teamMonthlyPaise } from "~/lib/seats";
import { type Database, db as defaultDb } from "../db";
import { pageWindow, requestedPage } from "~/lib/paging";
import {
  auditLog,
  disputes,
  entitlementGrants,
  invoiceColumns,
  invoices,
  payments,
  providerPlans,
  SUBSCRIPTION_STATUSES,
  subscriptions,
  user as users,
  webhookEvents,
} from "../db/schema";
import { escapeLike } from "./users.server";
import { UNDECIDED_DISPUTE_STATUSES } from "~/lib/disputes";

export interface BillingStats {
  mrrPaise: number;
  activeSubscriptions: number;
  failedPaymentsThisMonth: number;
  /** Disputes not decided yet, and their rupee value (issue 59, point 4). */
  disputedOpen: number;
  disputedOpenPaise: number;
  /** What lost disputes took back this month (India month), in rupees. */
  lostToDisputesThisMonthPaise: number;
}

/** A dispute's rupee value: its share of its payment's rupee value (abroad, as converted). */
const disputeInrPaise = sql<number>`coalesce(sum(
  ${disputes.amountMinor}::bigint * coalesce(${payments.inrValuePaise}, ${payments.amountPaise})
    / nullif(${payments.amountPaise}, 0)), 0)::bigint`.mapWith(Number);

/** MRR counts subscriptions that are paying (active, or pending while Razorpay retries). */
export async function billingStats(
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<BillingStats> {
  const monthStart = istMonthRange(istMonth(now))?.from ?? now;
  const [paying, [failed], [open], [lost]] = await Promise.all([
    database
      .select({
        planId: subscriptions.planId,
        status: subscriptions.status,
        cancelAtCycleEnd: subscriptions.cancelAtCycleEnd,
        cancelReason: subscriptions.cancelReason,
        teamId: subscriptions.teamId,
        seats: subscriptions.seats,
        unitPaise: providerPlans.amount,
        currency: subscriptions.currency,
        // Abroad (issue 56): what its latest payment was worth in rupees, as Razorpay converted it.
        lastInrPaise: sql<number | null>`(select ${payments.inrValuePaise} from ${payments}
          where ${payments.subscriptionId} = ${subscriptions.id} and ${payments.status} = 'captured'
          order by ${payments.paidAt} desc limit 1)`.mapWith((value: unknown) =>
          value === null ? null : Number(value),
        ),
      })
      .from(subscriptions)
      .leftJoin(providerPlans, eq(providerPlans.providerPlanId, subscriptions.providerPlanId))
      .where(
        inArray(
          subscriptions.status,
          statusesWhere((rules) => rules.paying),
        ),
      ),
    database
      .select({ value: count() })
      .from(payments)
      .where(and(eq(payments.status, "failed"), gte(payments.paidAt, monthStart))),
    database
      .select({ count: count(), paise: disputeInrPaise })
      .from(disputes)
      .leftJoin(payments, eq(payments.providerPaymentId, disputes.providerPaymentId))
      .where(inArray(disputes.status, [...UNDECIDED_DISPUTE_STATUSES])),
    database
      .select({ paise: disputeInrPaise })
      .from(disputes)
      .leftJoin(payments, eq(payments.providerPaymentId, disputes.providerPaymentId))
      .where(and(eq(disputes.status, "lost"), gte(disputes.updatedAt, monthStart))),
  ]);
  let mrr = 0;
  for (const row of paying) {
    const plan = findPlan(row.planId);
    // A subscription cancelled at period end brings no more recurring revenue; one a switch or
    // a change of seats replaces does, until the new one starts.
    if (!plan || !recurs(row)) continue;
    // A team's: its seats at the seat's price (issue 37, point 6). One abroad: its latest
    // payment's rupee value a month (MRR is in rupees; its price is in another currency).
    mrr +=
      row.currency !== "INR"
        ? Math.round((row.lastInrPaise ?? 0) / (plan.billingCycle === "yearly" ? 12 : 1))
        : row.teamId && row.unitPaise !== null && plan.billingCycle
          ? teamMonthlyPaise(plan.billingCycle, row.unitPaise, row.seats)
          : monthlyValuePaise(plan);
  }
  return {
    mrrPaise: mrr,
    activeSubscriptions: paying.length,
    failedPaymentsThisMonth: failed?.value ?? 0,
    disputedOpen: open?.count ?? 0,
    disputedOpenPaise: open?.paise ?? 0,
    lostToDisputesThisMonthPaise: lost?.paise ?? 0,
  };
}

export const SUBSCRIPTIONS_PER_PAGE = 50;

export interface SubscriptionQuery {
  status: (typeof SUBSCRIPTION_STATUSES)[number] | "";
  plan: PaidPlanId | "";
  q: string;
  page: number;
}

export function parseSubscriptionQuery(params: URLSearchParams): SubscriptionQuery {
  const status = params.get("status") ?? "";
  const plan = params.get("plan") ?? "";
  const q = (params.get("q") ?? "").trim();
  return {
    status: (SUBSCRIPTION_STATUSES as readonly string[]).includes(status)
      ? (status as SubscriptionQuery["status"])
      : "",
    plan: isPaidPlanId(plan) ? plan : "",
    q: q.length <= 200 ? q : "",
    page: requestedPage(params),
  };
}

export async function listSubscriptions(
  query: SubscriptionQuery,
  database: Database = defaultDb(),
) {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(subscriptions.status, query.status));
  if (query.plan) filters.push(eq(subscriptions.planId, query.plan));
  if (query.q.startsWith("pay_")) {
    const rows = await database
      .select({ id: payments.subscriptionId })
      .from(payments)
      .where(eq(payments.providerPaymentId, query.q));
    const ids = rows.map((row) => row.id).filter((id): id is string => id !== null);
    if (ids.length === 0)
      return { rows: [], total: 0, ...pageWindow(1, 0, SUBSCRIPTIONS_PER_PAGE) };
    filters.push(inArray(subscriptions.id, ids));
  } else if (query.q.startsWith("sub_")) {
    filters.push(eq(subscriptions.providerSubscriptionId, query.q));
  } else if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    const match = or(ilike(users.email, pattern), ilike(users.name, pattern));
    if (match) filters.push(match);
  }
  const where = filters.length ? and(...filters) : undefined;
  const [counted] = await database
    .select({ value: count() })
    .from(subscriptions)
    .leftJoin(users, eq(users.id, subscriptions.userId))
    .where(where);
  const total = counted?.value ?? 0;
  const window = pageWindow(query.page, total, SUBSCRIPTIONS_PER_PAGE);
  const rows = await database
    .select({
      id: subscriptions.id,
      providerSubscriptionId: subscriptions.providerSubscriptionId,
      planId: subscriptions.planId,
      status: subscriptions.status,
      cancelAtCycleEnd: subscriptions.cancelAtCycleEnd,
      cancelReason: subscriptions.cancelReason,
      endReason: subscriptions.endReason,
      replacesSubscriptionId: subscriptions.replacesSubscriptionId,
      currentEnd: subscriptions.currentEnd,
      createdAt: subscriptions.createdAt,
      userId: subscriptions.userId,
      email: users.email,
    })
    .from(subscriptions)
    .leftJoin(users, eq(users.id, subscriptions.userId))
    .where(where)
    // The id breaks ties, so pages never repeat or skip one created in the same instant.
    .orderBy(desc(subscriptions.createdAt), subscriptions.id)
    .limit(SUBSCRIPTIONS_PER_PAGE)
    .offset(window.offset);
  return { rows, total, ...window };
}

/** Everything support needs about one customer's billing. */
export async function customerBilling(userId: string, database: Database = defaultDb()) {
  const subs = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt));
  const providerIds = subs.map((row) => row.providerSubscriptionId);
  const [pays, events, grants, audit, documents] = await Promise.all([
    database
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.paidAt)),
    providerIds.length
      ? database
          .select({
            eventId: webhookEvents.eventId,
            event: webhookEvents.event,
            providerSubscriptionId: webhookEvents.providerSubscriptionId,
            receivedAt: webhookEvents.receivedAt,
            processedAt: webhookEvents.processedAt,
            processCount: webhookEvents.processCount,
          })
          .from(webhookEvents)
          .where(inArray(webhookEvents.providerSubscriptionId, providerIds))
          .orderBy(desc(webhookEvents.receivedAt))
          .limit(100)
      : Promise.resolve([]),
    database
      .select()
      .from(entitlementGrants)
      .where(eq(entitlementGrants.userId, userId))
      .orderBy(desc(entitlementGrants.createdAt)),
    database
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetUserId, userId))
      .orderBy(desc(auditLog.createdAt))
      .limit(100),
    database
      .select(invoiceColumns)
      .from(invoices)
      .where(eq(invoices.userId, userId))
      .orderBy(desc(invoices.issuedAt), desc(invoices.number)),
  ]);
  return { subscriptions: subs, payments: pays, events, grants, audit, invoices: documents };
}
