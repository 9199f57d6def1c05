/**
 * Teams' seats (issue 37, points 2 and 4), browser-safe: what N seats cost per cycle, and whether
 * that is more than a UPI AutoPay mandate may debit. The team's seats page, its checkout, the
 * invoices and the cockpit all price seats here.
 */
import { type BillingCycle, site } from "~/config/site";
import { formatInr } from "./money";
import { paidPlanFor, type PaidPlanId } from "./plans";

/** The price of one seat for one cycle (GST included) when `seats` are bought: its volume tier. */
export function seatPricePaise(cycle: BillingCycle, seats: number): number {
  const tiers = [...site.teams.seatPrices[cycle]].sort((a, b) => b.fromSeats - a.fromSeats);
  const tier = tiers.find((candidate) => seats >= candidate.fromSeats) ?? tiers[tiers.length - 1];
  if (!tier) throw new Error(`no seat price for ${cycle} in site config`);
  return tier.pricePaise;
}

export interface SeatQuote {
  cycle: BillingCycle;
  /** The plan each seat gives (Pro, monthly or yearly). */
  planId: PaidPlanId;
  seats: number;
  seatPricePaise: number;
  /** seats × seatPricePaise: one cycle's charge. */
  totalPaise: number;
  /** The charge is above what UPI AutoPay may debit: card only (point 4). */
  overUpiLimit: boolean;
}

export function seatQuote(cycle: BillingCycle, seats: number): SeatQuote {
  const price = seatPricePaise(cycle, seats);
  const total = price * seats;
  return {
    cycle,
    planId: paidPlanFor(cycle).id as PaidPlanId,
    seats,
    seatPricePaise: price,
    totalPaise: total,
    overUpiLimit: total > site.pricing.upiAutopayLimitPaise,
  };
}

/** "3 seats", "1 seat". */
export function seatsText(count: number): string {
  return count === 1 ? "1 seat" : `${count} seats`;
}

/**
 * Why a cycle this large is paid by card, said before anything is authorised: UPI AutoPay cannot
 * debit it, and a card mandate above ₹15,000 needs the bank's authentication on every charge.
 */
export function upiLimitText(totalPaise: number, cycle: BillingCycle): string {
  const limit = formatInr(site.pricing.upiAutopayLimitPaise);
  return `${formatInr(totalPaise)} a ${cycle === "yearly" ? "year" : "month"} is more than UPI AutoPay can debit at once (${limit}), so pay by debit or credit card. Above ${limit}, your bank asks you to approve each charge (an OTP or its app) when it is made, as RBI's rules for card mandates require; we mail you before every charge so you can.`;
}

/** The volume tiers in words, for the page: "₹699 a seat a month; from 10 seats, ₹599". */
export function seatTiersText(cycle: BillingCycle): string {
  const per = cycle === "yearly" ? "year" : "month";
  const tiers = [...site.teams.seatPrices[cycle]].sort((a, b) => a.fromSeats - b.fromSeats);
  return tiers
    .map((tier, index) =>
      index === 0
        ? `${formatInr(tier.pricePaise)} a seat a ${per}`
        : `from ${tier.fromSeats} seats, ${formatInr(tier.pricePaise)} a seat`,
    )
    .join("; ");
}

const DAY_MS = 86_400_000;

export interface SeatTopup {
  seatsAdded: number;
  /** Whole days left of the current cycle (counting today), and the cycle's length in days. */
  daysLeft: number;
  cycleDays: number;
  amountPaise: number;
}

/**
 * What seats added mid-cycle cost for the rest of the current cycle (GST included): each added
 * seat's price × the days left (today counted) ÷ the cycle's days, rounded to the paisa, and at
 * least ₹1 (Razorpay's smallest charge).
 */
export function seatTopup(
  seatPrice: number,
  seatsAdded: number,
  cycle: { start: Date; end: Date },
  now: Date,
): SeatTopup {
  const cycleDays = Math.max(1, Math.round((cycle.end.getTime() - cycle.start.getTime()) / DAY_MS));
  const daysLeft = Math.min(
    cycleDays,
    Math.max(1, Math.ceil((cycle.end.getTime() - now.getTime()) / DAY_MS)),
  );
  return {
    seatsAdded,
    daysLeft,
    cycleDays,
    amountPaise: Math.max(100, Math.round((seatPrice * seatsAdded * daysLeft) / cycleDays)),
  };
}

/**
 * What a team's subscription is worth per month (MRR): its seats × the seat's price, a yearly
 * one's divided by 12 and rounded, as `monthlyValuePaise` counts a person's.
 */
export function teamMonthlyPaise(
  cycle: BillingCycle,
  seatPricePaise: number,
  seats: number,
): number {
  const cyclePaise = seatPricePaise * seats;
  return cycle === "yearly" ? Math.round(cyclePaise / 12) : cyclePaise;
}
