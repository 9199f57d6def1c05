import { and, eq, gte, lt, ne, sql } from "drizzle-orm";
import { istMonth, istMonthRange } from "~/lib/india-time";
import { findPlan } from "~/lib/plans";
import { teamMonthlyPaise } from "~/lib/seats";
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
  const [paymentResult, refundRows, noteRows] = await Promise.all([
    // Raw rows with times as epoch milliseconds: 100,000 payments parse several times faster as
    // numbers than as timestamp strings, and the computation compares numbers anyway.
    database.execute(sql`
      select coalesce(s.user_id, 'team:' || s.team_id, p.user_id, 'subscription:' || s.id::text)
               as customer,
             s.id as subscription_id, s.plan_id, p.status, p.amount_paise,
             p.currency, p.inr_value_paise,
             p.amount_refunded_paise, (extract(epoch from p.paid_at) * 1000)::float8 as paid_ms,
             (extract(epoch from p.recorded_at) * 1000)::float8 as recorded_ms,
             case when s.team_id is not null then s.seats * pp.amount_paise end as team_cycle_paise,
             exists (select 1 from team_seat_topups t
                      where t.subscription_id = s.id and t.amount_paise = p.amount_paise) as topup
        from ${payments} p join ${subscriptions} s on s.id = p.subscription_id
        left join provider_plans pp on pp.provider_plan_id = s.provider_plan_id
       where p.paid_at < ${to.toISOString()}::timestamptz`),
    database
      .select({
        // In rupees: a refund abroad is in its payment's currency, at that payment's rate.
        amountPaise:
          sql<number>`(case when ${payments.currency} = 'INR' or ${payments.currency} is null
          then ${refunds.amountPaise}
          else round(${refunds.amountPaise}::numeric * coalesce(${payments.inrValuePaise}, 0)
                     / nullif(${payments.amountPaise}, 0))
        end)::integer`.mapWith(Number),
        at: refunds.createdAt,
      })
      .from(refunds)
      .leftJoin(payments, eq(payments.providerPaymentId, refunds.providerPaymentId))
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
  const paymentRows = (
    paymentResult as unknown as {
      rows: {
        customer: string;
        subscription_id: string;
        plan_id: string;
        status: string;
        amount_paise: number;
        currency: string;
        inr_value_paise: number | null;
        amount_refunded_paise: number;
        paid_ms: number;
        recorded_ms: number;
        team_cycle_paise: number | null;
        topup: boolean;
      }[];
    }
  ).rows.map((row) => ({
    // A team's seats (issue 37): worth their seats × the seat's price; its upfront amount for
    // seats added mid-cycle is revenue, not a recurring charge.
    ...(row.team_cycle_paise === null
      ? {}
      : {
          monthlyPaise: teamMonthlyPaise(
            findPlan(row.plan_id)?.billingCycle ?? "monthly",
            Number(row.team_cycle_paise),
            1,
          ),
        }),
    recurring: !row.topup,
    customer: row.customer,
    subscriptionId: row.subscription_id,
    planId: row.plan_id,
    status: row.status,
    amountPaise: Number(row.amount_paise),
    currency: row.currency,
    inrPaise: row.inr_value_paise === null ? null : Number(row.inr_value_paise),
    amountRefundedPaise: Number(row.amount_refunded_paise),
    paidAt: new Date(Number(row.paid_ms)),
    recordedAt: new Date(Number(row.recorded_ms)),
  }));
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
