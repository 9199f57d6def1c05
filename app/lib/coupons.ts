/**
 * Coupon terms in numbers and words, browser-safe: pricing, checkout, the admin form and the
 * invoice take a coupon's price from here, by the rule Razorpay's offers use (offers.md): a
 * percentage of the plan's price rounded to the paisa, or a flat amount off; and an offer applies
 * only when more than ₹1 is left to charge.
 */
import type { BillingCycle } from "./plans";
import { formatInr } from "./money";

export type CouponKind = "percent" | "flat";
export type CouponDuration = "once" | "cycles" | "forever";
export type OfferMethod = "any" | "card" | "upi";

export interface CouponTerms {
  code: string;
  kind: CouponKind;
  /** Whole percent for "percent", paise for "flat". */
  amount: number;
  duration: CouponDuration;
  durationCycles: number | null;
  offerMethod: OfferMethod;
}

/** What Razorpay charges at least when an offer applies: more than ₹1. */
export const MIN_CHARGE_AFTER_OFFER_PAISE = 101;

/** A code as typed, as stored: trimmed, upper case. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Codes are 3–32 of A–Z, 0–9 and "-". */
export const COUPON_CODE = /^[A-Z0-9-]{3,32}$/;

/** The discount on a price, in paise (never more than the price). */
export function couponDiscount(pricePaise: number, terms: Pick<CouponTerms, "kind" | "amount">) {
  const off =
    terms.kind === "percent" ? Math.round((pricePaise * terms.amount) / 100) : terms.amount;
  return Math.min(off, pricePaise);
}

/** The price with the coupon, or null when it would leave ₹1 or less (Razorpay would not apply it). */
export function couponPrice(
  pricePaise: number,
  terms: Pick<CouponTerms, "kind" | "amount">,
): number | null {
  const price = pricePaise - couponDiscount(pricePaise, terms);
  return price >= MIN_CHARGE_AFTER_OFFER_PAISE ? price : null;
}

/** "20% off", "₹200 off". */
export function couponOffText(terms: Pick<CouponTerms, "kind" | "amount">): string {
  return terms.kind === "percent" ? `${terms.amount}% off` : `${formatInr(terms.amount)} off`;
}

/** How many charges are discounted: 1, N, or null for every one. */
export function discountedCharges(
  terms: Pick<CouponTerms, "duration" | "durationCycles">,
): number | null {
  if (terms.duration === "forever") return null;
  return terms.duration === "once" ? 1 : (terms.durationCycles ?? 1);
}

const UNIT = { monthly: "month", yearly: "year" } as const;

/** "for the first payment", "for the first 3 months", "for every payment". */
export function couponDurationText(
  terms: Pick<CouponTerms, "duration" | "durationCycles">,
  cycle: BillingCycle | null,
): string {
  const charges = discountedCharges(terms);
  if (charges === null) return "on every payment, for as long as the subscription lasts";
  if (charges === 1) return "on the first payment";
  return cycle ? `for the first ${charges} ${UNIT[cycle]}s` : `on the first ${charges} payments`;
}

/** The method the discount needs, in words; empty when any method. */
export function couponMethodText(method: OfferMethod): string {
  if (method === "upi") return "Only when you pay with UPI AutoPay.";
  if (method === "card") return "Only when you pay by card.";
  return "";
}

/** "20% off for the first 3 months" (pricing, checkout, the account). */
export function couponSummary(terms: CouponTerms, cycle: BillingCycle | null): string {
  return `${couponOffText(terms)} ${couponDurationText(terms, cycle)}`;
}

/**
 * What charge number `index` (0 = the first) of a plan bought with a coupon comes to: the coupon's
 * price while its discounted charges last, then the list price (as the Razorpay offer charges).
 */
export function chargeWithCoupon(
  listPaise: number,
  terms: Pick<CouponTerms, "kind" | "amount" | "duration" | "durationCycles"> | null,
  index: number,
): number {
  if (!terms) return listPaise;
  const charges = discountedCharges(terms);
  if (charges !== null && index >= charges) return listPaise;
  return couponPrice(listPaise, terms) ?? listPaise;
}
