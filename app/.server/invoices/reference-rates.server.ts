/**
 * The rate rule's fallback (issue 56; decision 0061; CGST Rules r. 34(2)): when Razorpay reports
 * no rupee value for a payment abroad, its export invoice waits for the RBI reference rate of the
 * India day it was paid, entered by the operator on /admin/exchange-rates. Entering it values every
 * waiting payment of that currency and day (kept with the payment) and issues their invoices.
 */
import { and, desc, eq, isNull, ne, notExists, sql } from "drizzle-orm";
import { istDay } from "~/lib/india-time";
import type { ForeignCurrency } from "~/lib/money";
import { isForeignCurrency } from "~/lib/money";
import { db as defaultDb, type Executor } from "../db";
import { exchangeRates, invoices, payments, subscriptions } from "../db/schema";
import { inrAtRate } from "./engine.server";

/** The rate entered for a currency and India day, in ten-thousandths of a rupee; null if none. */
export async function referenceRate(
  executor: Executor,
  currency: ForeignCurrency,
  day: string,
): Promise<number | null> {
  const [row] = await executor
    .select({ rateE4: exchangeRates.rateE4 })
    .from(exchangeRates)
    .where(and(eq(exchangeRates.currency, currency), eq(exchangeRates.day, day)));
  return row?.rateE4 ?? null;
}

/** A payment abroad valued at its day's reference rate, recorded with it; null with no rate. */
export async function valueAtReferenceRate(
  executor: Executor,
  payment: { paymentId: string; amount: number; currency: ForeignCurrency; paidAt: Date },
): Promise<{ inrPaise: number; rateE4: number; day: string } | null> {
  const day = istDay(payment.paidAt);
  const rateE4 = await referenceRate(executor, payment.currency, day);
  if (rateE4 === null) return null;
  const inrPaise = inrAtRate(payment.amount, rateE4);
  // Kept with the payment, once: a conversion Razorpay reported later never replaces it.
  await executor
    .update(payments)
    .set({ inrValuePaise: sql`coalesce(${payments.inrValuePaise}, ${inrPaise}::integer)` })
    .where(eq(payments.providerPaymentId, payment.paymentId));
  return { inrPaise, rateE4, day };
}

export interface WaitingExport {
  paymentId: string;
  currency: ForeignCurrency;
  amount: number;
  paidAt: Date;
  /** The India day whose reference rate it waits for. */
  day: string;
  subscriptionId: string;
}

/** Captured payments abroad with no rupee value and no invoice: what waits for a rate. */
export async function exportsWaitingForRate(
  database: Executor = defaultDb(),
): Promise<WaitingExport[]> {
  const rows = await database
    .select({
      paymentId: payments.providerPaymentId,
      currency: payments.currency,
      amount: payments.amountPaise,
      paidAt: payments.paidAt,
      subscriptionId: payments.subscriptionId,
    })
    .from(payments)
    .where(
      and(
        ne(payments.currency, "INR"),
        isNull(payments.inrValuePaise),
        sql`${payments.status} in ('captured', 'refunded')`,
        notExists(
          database
            .select({ one: sql`1` })
            .from(invoices)
            .where(
              and(
                eq(invoices.kind, "invoice"),
                eq(invoices.providerPaymentId, payments.providerPaymentId),
              ),
            ),
        ),
      ),
    )
    .orderBy(payments.paidAt);
  return rows.flatMap((row) =>
    isForeignCurrency(row.currency) && row.subscriptionId
      ? [
          {
            paymentId: row.paymentId,
            currency: row.currency,
            amount: row.amount,
            paidAt: row.paidAt,
            day: istDay(row.paidAt),
            subscriptionId: row.subscriptionId,
          },
        ]
      : [],
  );
}

/** Stores (or corrects, before any invoice used it) a day's reference rate. */
export async function saveReferenceRate(
  executor: Executor,
  input: { currency: ForeignCurrency; day: string; rateE4: number; enteredBy: string },
): Promise<void> {
  await executor
    .insert(exchangeRates)
    .values(input)
    .onConflictDoUpdate({
      target: [exchangeRates.currency, exchangeRates.day],
      set: { rateE4: input.rateE4, enteredBy: input.enteredBy, enteredAt: new Date() },
    });
}

/** The subscription a waiting payment belongs to (for its invoice's plan, period and buyer). */
export async function subscriptionOfPayment(database: Executor, subscriptionId: string) {
  const [row] = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  return row ?? null;
}

/** The rates entered, newest day first: what /admin/exchange-rates lists. */
export async function recentReferenceRates(database: Executor = defaultDb(), limit = 30) {
  return database
    .select()
    .from(exchangeRates)
    .orderBy(desc(exchangeRates.day), exchangeRates.currency)
    .limit(limit);
}
