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
}

export interface RevenueRefund {
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
  from: Date;
  to: Date;
}

function coverages(payments: readonly RevenuePayment[]): Coverage[] {
  const result: Coverage[] = [];
  for (const payment of payments) {
    if (!PAID.has(payment.status) || payment.amountRefundedPaise >= payment.amountPaise) continue;
    const plan = findPlan(payment.planId);
    if (!plan?.billingCycle) continue;
    result.push({
      customer: payment.customer,
      subscriptionId: payment.subscriptionId,
      monthlyPaise: monthlyValuePaise(plan),
      from: payment.paidAt,
      to: new Date(periodEnd(payment.paidAt, plan.billingCycle).getTime() + GRACE_MS),
    });
  }
  return result;
}

/** Each customer's MRR at a moment (a subscription counted once however many payments cover it). */
export function mrrAt(covers: readonly Coverage[], at: Date): Map<string, number> {
  const seen = new Set<string>();
  const byCustomer = new Map<string, number>();
  for (const cover of covers) {
    if (cover.from > at || cover.to <= at || seen.has(cover.subscriptionId)) continue;
    seen.add(cover.subscriptionId);
    byCustomer.set(cover.customer, (byCustomer.get(cover.customer) ?? 0) + cover.monthlyPaise);
  }
  return byCustomer;
}

const sum = (values: Iterable<number>) => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};

export function revenueByMonth(input: {
  months: readonly string[];
  now: Date;
  payments: readonly RevenuePayment[];
  refunds: readonly RevenueRefund[];
  creditNotes: readonly RevenueCreditNote[];
}): RevenueMonth[] {
  const covers = coverages(input.payments);
  const firstCover = new Map<string, Date>();
  for (const cover of covers) {
    const known = firstCover.get(cover.customer);
    if (!known || cover.from < known) firstCover.set(cover.customer, cover.from);
  }
  const lastPaid = new Map<string, Date>();
  for (const payment of input.payments) {
    if (!PAID.has(payment.status)) continue;
    const known = lastPaid.get(payment.subscriptionId);
    if (!known || payment.paidAt > known) lastPaid.set(payment.subscriptionId, payment.paidAt);
  }
  const snapshot = (month: string) => {
    const end = istMonthRange(month)!.to;
    return end < input.now ? end : input.now;
  };
  const within = (at: Date, month: string) => {
    const range = istMonthRange(month)!;
    return at >= range.from && at < range.to && at <= input.now;
  };

  return input.months.map((month) => {
    const start = istMonthRange(month)!.from;
    const before = mrrAt(covers, start);
    const after = mrrAt(covers, snapshot(month));
    let newPaise = 0;
    let expansionPaise = 0;
    let contractionPaise = 0;
    let churnedPaise = 0;
    let recoveredPaise = 0;
    let churnedCustomers = 0;
    for (const [customer, now] of after) {
      const was = before.get(customer) ?? 0;
      if (was === 0) {
        const first = firstCover.get(customer);
        if (first && first < start) recoveredPaise += now;
        else newPaise += now;
      } else if (now > was) expansionPaise += now - was;
      else if (now < was) contractionPaise += was - now;
    }
    for (const [customer, was] of before)
      if (!after.has(customer)) {
        churnedPaise += was;
        churnedCustomers += 1;
      }

    const failedAt = new Map<string, Date>();
    for (const payment of input.payments)
      if (payment.status === "failed" && within(payment.paidAt, month)) {
        const known = failedAt.get(payment.subscriptionId);
        if (!known || payment.paidAt < known) failedAt.set(payment.subscriptionId, payment.paidAt);
      }
    let recoveredSubscriptions = 0;
    for (const [subscriptionId, at] of failedAt) {
      const paid = lastPaid.get(subscriptionId);
      if (paid && paid > at) recoveredSubscriptions += 1;
    }

    const refunds = input.refunds.filter((refund) => within(refund.at, month));
    const notes = input.creditNotes.filter((note) => within(note.at, month));
    const mrrPaise = sum(after.values());
    return {
      month,
      mrrPaise,
      subscribers: after.size,
      newPaise,
      expansionPaise,
      contractionPaise,
      churnedPaise,
      recoveredPaise,
      churnedCustomers,
      churnRate: before.size > 0 ? churnedCustomers / before.size : null,
      arpuPaise: after.size > 0 ? Math.round(mrrPaise / after.size) : null,
      refundsPaise: sum(refunds.map((refund) => refund.amountPaise)),
      refunds: refunds.length,
      creditNotesPaise: sum(notes.map((note) => note.totalPaise)),
      creditNotes: notes.length,
      failedSubscriptions: failedAt.size,
      recoveredSubscriptions,
      recoveryRate: failedAt.size > 0 ? recoveredSubscriptions / failedAt.size : null,
    };
  });
}

/** The `count` India months ending with `last`, oldest first. */
export function monthsEnding(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => addIstMonths(last, index - (count - 1)));
}
