import { and, eq, gte, lt, ne, sql } from "drizzle-orm";
import { istMonth, istMonthRange } from "~/lib/india-time";
import { type Database, db as defaultDb } from "../db";
import { invoices, payments, refunds, subscriptions } from "../db/schema";
import { monthsEnding, type RevenueMonth, revenueByMonth } from "./revenue";

export const REVENUE_MONTHS = 12;

/**
 * The revenue table for the `REVENUE_MONTHS` India months ending with `lastMonth`, read from
 * payments (every one up to the end: a customer's history decides new vs recovered), refunds
 * and credit notes.
 */
export async function revenueMonths(
  lastMonth: string,
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<RevenueMonth[]> {
  const months = monthsEnding(lastMonth, REVENUE_MONTHS);
  const from = istMonthRange(months[0]!)!.from;
  const to = istMonthRange(lastMonth)!.to;
  const [paymentRows, refundRows, noteRows] = await Promise.all([
    database
      .select({
        customer: sql<string>`coalesce(${subscriptions.userId}, ${payments.userId}, 'subscription:' || ${subscriptions.id}::text)`,
        subscriptionId: subscriptions.id,
        planId: subscriptions.planId,
        status: payments.status,
        amountPaise: payments.amountPaise,
        amountRefundedPaise: payments.amountRefundedPaise,
        paidAt: payments.paidAt,
      })
      .from(payments)
      .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
      .where(lt(payments.paidAt, to)),
    database
      .select({ amountPaise: refunds.amountPaise, at: refunds.createdAt })
      .from(refunds)
      .where(
        and(gte(refunds.createdAt, from), lt(refunds.createdAt, to), ne(refunds.status, "failed")),
      ),
    database
      .select({ totalPaise: invoices.totalPaise, at: invoices.issuedAt })
      .from(invoices)
      .where(
        and(
          eq(invoices.kind, "credit_note"),
          gte(invoices.issuedAt, from),
          lt(invoices.issuedAt, to),
        ),
      ),
  ]);
  return revenueByMonth({
    months,
    now,
    payments: paymentRows,
    refunds: refundRows,
    creditNotes: noteRows,
  });
}

export function currentMonth(now: Date = new Date()): string {
  return istMonth(now);
}
