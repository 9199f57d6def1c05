/**
 * Calendar arithmetic on billing cycles, as Razorpay counts them: a month is a calendar month
 * (31 January + 1 month is 28 or 29 February, clamped), a year twelve of them. Used where the site
 * itself says when a cycle ends, such as the end of a pause of a few cycles (issue 59).
 */
import type { BillingCycle } from "~/config/site";

/** `date` moved on by `count` billing cycles, keeping the time of day. */
export function addBillingCycles(date: Date, cycle: BillingCycle, count: number): Date {
  const months = cycle === "yearly" ? count * 12 : count;
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
}
