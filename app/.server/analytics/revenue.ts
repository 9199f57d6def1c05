import { addIstMonths, inIndia, istMonthRange, istStartOf } from "~/lib/india-time";
import { type BillingCycle, findPlan, monthlyValuePaise } from "~/lib/plans";

/**
 * Revenue per India month from our own payment records, in integer paise.
 *
 * A customer pays for a period: a captured payment of a monthly plan covers the calendar month
 * after it, a yearly one the year after it, plus one day of grace (a renewal is charged at the
 * period's end, sometimes hours late). A fully refunded payment covers nothing. A customer's MRR
 * at a moment is the monthly value of every subscription a payment covers then (a yearly plan
 * counts a twelfth of its price), so MRR follows what was paid, not what a status column says.
 * Month by month, comparing each customer's MRR at the month's end with the month before gives
 * the movements: new, expansion, contraction, churned and recovered (a customer who had paid
 * before, lapsed and pays again). The current month is measured at `now`.
 */

export interface RevenuePayment {
  /** The customer: the user, or the subscription when the account was deleted. */
  customer: string;
  subscriptionId: string;
  planId: string;
  status: string;
  amountPaise: number;
  amountRefundedPaise: number;
  paidAt: Date;
  /**
   * When we stored it: orders two payments Razorpay dated in the same second (its times are
   * whole seconds), such as a failed charge and the retry that paid it.
   */
  recordedAt?: Date;
  /**
   * What the subscription is worth a month when its plan's price does not say it: a team's
   * seats × the seat's price (issue 37). Absent: the plan's monthly value.
   */
  monthlyPaise?: number;
  /**
   * False for a payment that is not a recurring charge (the upfront amount for seats added
   * mid-cycle): revenue that month, but no MRR.
   */
  recurring?: boolean;
  /**
   * Issue 56: the payment's currency (rupees when absent) and, for another currency, its value in
   * rupees as Razorpay converted it: MRR is in rupees at each payment's own rate.
   */
  currency?: string;
  inrPaise?: number | null;
}

export interface RevenueRefund {
  /** In rupees (a refund abroad at its payment's rate). */
  amountPaise: number;
  at: Date;
}

export interface RevenueCreditNote {
  totalPaise: number;
  at: Date;
}

export interface RevenueMonth {
  month: string;
  mrrPaise: number;
  /** The MRR by the currency its subscriptions are paid in, each in rupees (issue 56). */
  mrrByCurrency: Record<string, number>;
  subscribers: number;
  newPaise: number;
  expansionPaise: number;
  contractionPaise: number;
  churnedPaise: number;
  recoveredPaise: number;
  /** Customers paying at the start of the month who were not at its end. */
  churnedCustomers: number;
  /** churnedCustomers ÷ subscribers at the start; null when nobody was paying. */
  churnRate: number | null;
  arpuPaise: number | null;
  refundsPaise: number;
  refunds: number;
  creditNotesPaise: number;
  creditNotes: number;
  /** Subscriptions with a failed payment this month, and how many of them paid later. */
  failedSubscriptions: number;
  recoveredSubscriptions: number;
  recoveryRate: number | null;
}

export const GRACE_MS = 24 * 60 * 60 * 1000;
const PAID = new Set(["captured", "refunded"]);

/** A period's end in India time: the same day next month or year, or that month's last day. */
export function periodEnd(paidAt: Date, cycle: BillingCycle): Date {
  const ist = inIndia(paidAt);
  const year = ist.getUTCFullYear() + (cycle === "yearly" ? 1 : 0);
  const month = ist.getUTCMonth() + (cycle === "monthly" ? 1 : 0);
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(ist.getUTCDate(), lastDay);
  const timeOfDay =
    ist.getTime() - Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate());
  return new Date(istStartOf(year, month, day).getTime() + timeOfDay);
}

interface Coverage {
  customer: string;
  subscriptionId: string;
  monthlyPaise: number;
  currency: string;
  /** [from, to) in epoch milliseconds: compared many times, so numbers rather than Dates. */
  from: number;
  to: number;
}

function coverages(payments: readonly RevenuePayment[]): Coverage[] {
  const result: Coverage[] = [];
  for (const payment of payments) {
    if (!PAID.has(payment.status) || payment.amountRefundedPaise >= payment.amountPaise) continue;
    if (payment.recurring === false) continue;
    const plan = findPlan(payment.planId);
    if (!plan?.billingCycle) continue;
    const currency = payment.currency ?? "INR";
    result.push({
      customer: payment.customer,
      subscriptionId: payment.subscriptionId,
      currency,
      // Abroad: the payment's rupee value, a twelfth of it for a year (the plan's rupee price
      // says nothing of what a buyer paid in dollars).
      monthlyPaise:
        payment.monthlyPaise ??
        (currency === "INR"
          ? monthlyValuePaise(plan)
          : Math.round((payment.inrPaise ?? 0) / (plan.billingCycle === "yearly" ? 12 : 1))),
      from: payment.paidAt.getTime(),
      to: periodEnd(payment.paidAt, plan.billingCycle).getTime() + GRACE_MS,
    });
  }
  return result;
}

/** Each customer's MRR at a moment (a subscription counted once however many payments cover it). */
export function mrrAt(covers: readonly Coverage[], at: number): Map<string, number> {
  const seen = new Set<string>();
  const byCustomer = new Map<string, number>();
  for (const cover of covers) {
    if (cover.from > at || cover.to <= at || seen.has(cover.subscriptionId)) continue;
    seen.add(cover.subscriptionId);
    byCustomer.set(cover.customer, (byCustomer.get(cover.customer) ?? 0) + cover.monthlyPaise);
  }
  return byCustomer;
}

/** The MRR at a moment by the currency each subscription is paid in, in rupees. */
function mrrByCurrencyAt(covers: readonly Coverage[], at: number): Record<string, number> {
  const seen = new Set<string>();
  const byCurrency: Record<string, number> = {};
  for (const cover of covers) {
    if (cover.from > at || cover.to <= at || seen.has(cover.subscriptionId)) continue;
    seen.add(cover.subscriptionId);
    byCurrency[cover.currency] = (byCurrency[cover.currency] ?? 0) + cover.monthlyPaise;
  }
  return byCurrency;
}

/** Which of `months` an instant falls in (before `now`), by its index; -1 for none. */
function monthIndexer(months: readonly string[], now: number) {
  const starts = months.map((month) => istMonthRange(month)!.from.getTime());
  const end = istMonthRange(months.at(-1)!)!.to.getTime();
  return (at: number): number => {
    if (at > now || at >= end || at < (starts[0] ?? end)) return -1;
    let index = starts.length - 1;
    while (index > 0 && at < starts[index]!) index -= 1;
    return index;
  };
}

type Moment = readonly [providerMs: number, recordedMs: number];
const later = (a: Moment, b: Moment) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

export function revenueByMonth(input: {
  months: readonly string[];
  now: Date;
  payments: readonly RevenuePayment[];
  refunds: readonly RevenueRefund[];
  creditNotes: readonly RevenueCreditNote[];
}): RevenueMonth[] {
  const now = input.now.getTime();
  const covers = coverages(input.payments);
  const firstCover = new Map<string, number>();
  for (const cover of covers) {
    const known = firstCover.get(cover.customer);
    if (known === undefined || cover.from < known) firstCover.set(cover.customer, cover.from);
  }
  const monthOf = monthIndexer(input.months, now);
  // Per month: when each subscription first failed to pay, and refunds and credit notes.
  // Times as [Razorpay's time, our record's time]: the second breaks a tie in whole seconds.
  const failedAt = input.months.map(() => new Map<string, Moment>());
  const lastPaid = new Map<string, Moment>();
  for (const payment of input.payments) {
    const at: Moment = [payment.paidAt.getTime(), payment.recordedAt?.getTime() ?? 0];
    if (PAID.has(payment.status)) {
      const known = lastPaid.get(payment.subscriptionId);
      if (!known || later(at, known)) lastPaid.set(payment.subscriptionId, at);
      continue;
    }
    const index = monthOf(at[0]);
    if (payment.status !== "failed" || index === -1) continue;
    const failures = failedAt[index]!;
    const known = failures.get(payment.subscriptionId);
    if (!known || later(known, at)) failures.set(payment.subscriptionId, at);
  }
  /** Amounts and counts per month of the months list. */
  const perMonth = <T>(items: readonly T[], at: (item: T) => Date, paise: (item: T) => number) => {
    const totals = input.months.map(() => ({ paise: 0, count: 0 }));
    for (const item of items) {
      const total = totals[monthOf(at(item).getTime())];
      if (!total) continue;
      total.paise += paise(item);
      total.count += 1;
    }
    return totals;
  };
  const refunds = perMonth(
    input.refunds,
    (refund) => refund.at,
    (refund) => refund.amountPaise,
  );
  const notes = perMonth(
    input.creditNotes,
    (note) => note.at,
    (note) => note.totalPaise,
  );

  return input.months.map((month, index) => {
    const range = istMonthRange(month)!;
    const start = range.from.getTime();
    const before = mrrAt(covers, start);
    const after = mrrAt(covers, Math.min(range.to.getTime(), now));
    let newPaise = 0;
    let expansionPaise = 0;
    let contractionPaise = 0;
    let churnedPaise = 0;
    let recoveredPaise = 0;
    let churnedCustomers = 0;
    let mrrPaise = 0;
    for (const [customer, current] of after) {
      mrrPaise += current;
      const was = before.get(customer) ?? 0;
      if (was === 0) {
        if ((firstCover.get(customer) ?? Infinity) < start) recoveredPaise += current;
        else newPaise += current;
      } else if (current > was) expansionPaise += current - was;
      else if (current < was) contractionPaise += was - current;
    }
    for (const [customer, was] of before)
      if (!after.has(customer)) {
        churnedPaise += was;
        churnedCustomers += 1;
      }
    const failures = failedAt[index]!;
    let recoveredSubscriptions = 0;
    for (const [subscriptionId, at] of failures) {
      const paid = lastPaid.get(subscriptionId);
      if (paid && later(paid, at)) recoveredSubscriptions += 1;
    }

    return {
      month,
      mrrPaise,
      mrrByCurrency: mrrByCurrencyAt(covers, Math.min(range.to.getTime(), now)),
      subscribers: after.size,
      newPaise,
      expansionPaise,
      contractionPaise,
      churnedPaise,
      recoveredPaise,
      churnedCustomers,
      churnRate: before.size > 0 ? churnedCustomers / before.size : null,
      arpuPaise: after.size > 0 ? Math.round(mrrPaise / after.size) : null,
      refundsPaise: refunds[index]!.paise,
      refunds: refunds[index]!.count,
      creditNotesPaise: notes[index]!.paise,
      creditNotes: notes[index]!.count,
      failedSubscriptions: failures.size,
      recoveredSubscriptions,
      recoveryRate: failures.size > 0 ? recoveredSubscriptions / failures.size : null,
    };
  });
}

/** The `count` India months ending with `last`, oldest first. */
export function monthsEnding(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => addIstMonths(last, index - (count - 1)));
}
