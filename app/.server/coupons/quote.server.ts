/**
 * Whether a code gives a discount on a plan to this person, and what the price then is: the one
 * check pricing, checkout and the reservation share. Each refusal says which rule it is.
 */
import { statusesWhere } from "~/lib/subscription-state";
import { and, count, eq, inArray, or, sql } from "drizzle-orm";
import {
  type CouponTerms,
  couponPrice,
  discountedCharges,
  normalizeCouponCode,
} from "~/lib/coupons";
import { formatDate } from "~/lib/dates";
import { type PaidPlanId, planById, planLabel } from "~/lib/plans";
import { db as defaultDb, type Executor } from "../db";
import { couponRedemptions, coupons, type CouponRow, subscriptions } from "../db/schema";
import { mailboxKey } from "../security/person-keys.server";
import { HOLD_MS, redemptionCounts, redemptionUsed } from "./redemptions.server";

export type CouponRefusal =
  | "unknown"
  | "disabled"
  | "not-yet"
  | "expired"
  | "used-up"
  | "held"
  | "plan"
  | "too-much"
  | "customer-used"
  | "not-first";

export interface CouponQuote {
  coupon: CouponRow;
  terms: CouponTerms;
  planId: PaidPlanId;
  listPaise: number;
  pricePaise: number;
  /** Charges at the coupon's price: 1, N, or null for every one. */
  charges: number | null;
}

export type QuoteResult =
  { ok: true; quote: CouponQuote } | { ok: false; reason: CouponRefusal; message: string };

export function termsOf(coupon: CouponRow): CouponTerms {
  return {
    code: coupon.code,
    kind: coupon.kind,
    amount: coupon.amount,
    duration: coupon.duration,
    durationCycles: coupon.durationCycles,
    offerMethod: coupon.offerMethod,
  };
}

/** A refusal in words: which rule, for which code. */
export function refusalMessage(reason: CouponRefusal, code: string, detail = ""): string {
  const messages: Record<CouponRefusal, string> = {
    unknown: `There is no coupon ${code}. Check the spelling.`,
    disabled: `The coupon ${code} has been withdrawn.`,
    "not-yet": `The coupon ${code} can be used from ${detail}.`,
    expired: `The coupon ${code} expired on ${detail}.`,
    "used-up": `The coupon ${code} has been used as many times as it can be.`,
    held: `Every use left of the coupon ${code} is held by a checkout that is not paid yet. Try again in ${HOLD_MS / 60_000} minutes: a checkout nobody pays gives its use back.`,
    plan: `The coupon ${code} is not for ${detail}.`,
    "too-much": `The coupon ${code} cannot be applied to ${detail}.`,
    "customer-used": `You have already used the coupon ${code}.`,
    "not-first": `The coupon ${code} is for a first purchase, and this account has paid for Pro before.`,
  };
  return messages[reason];
}

function refusal(reason: CouponRefusal, code: string, detail = ""): QuoteResult {
  return { ok: false, reason, message: refusalMessage(reason, code, detail) };
}

export async function couponByCode(
  code: string,
  database: Executor = defaultDb(),
): Promise<CouponRow | null> {
  const [row] = await database
    .select()
    .from(coupons)
    .where(eq(coupons.code, normalizeCouponCode(code)));
  return row ?? null;
}

/** The code of the coupon a subscription was bought with, for its invoices; null without one. */
export async function couponCodeOf(
  database: Executor,
  couponId: string | null,
): Promise<string | null> {
  if (!couponId) return null;
  const [row] = await database
    .select({ code: coupons.code })
    .from(coupons)
    .where(eq(coupons.id, couponId));
  return row?.code ?? null;
}

/**
 * The redemptions of a coupon that count: paid for (`used`), and in all with the holds of
 * checkouts not paid yet (`total`); with a buyer, also those of their account or mailbox. The
 * buyer's own holds are left out: their open checkout is reused (or let go) by their next one.
 */
export async function redemptionsOf(
  database: Executor,
  couponId: string,
  buyer: { id: string; email: string } | null,
  now: Date,
): Promise<{ total: number; used: number; customer: number }> {
  const counted = redemptionCounts(now, buyer?.id ?? null);
  const [all] = await database
    .select({
      n: count(),
      used: sql<number>`count(*) filter (where ${redemptionUsed()})`.mapWith(Number),
    })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, couponId), counted));
  const total = all?.n ?? 0;
  const used = all?.used ?? 0;
  if (!buyer) return { total, used, customer: 0 };
  const [own] = await database
    .select({ n: count() })
    .from(couponRedemptions)
    .where(
      and(
        eq(couponRedemptions.couponId, couponId),
        or(
          eq(couponRedemptions.userId, buyer.id),
          eq(couponRedemptions.mailboxKey, mailboxKey(buyer.email)),
        ),
        counted,
      ),
    );
  return { total, used, customer: own?.n ?? 0 };
}

/** Has this account ever paid for (or authorised) a subscription? */
async function hasBought(database: Executor, userId: string): Promise<boolean> {
  const [row] = await database
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        or(
          sql`${subscriptions.paidCount} > 0`,
          inArray(
            subscriptions.status,
            statusesWhere((rules) => rules.runs),
          ),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Quotes a code for a plan. Without a buyer (a visitor on pricing) only the coupon's own rules
 * are checked; with one, the per-customer and first-purchase rules too.
 */
export async function quoteCoupon(
  code: string,
  planId: PaidPlanId,
  buyer: { id: string; email: string } | null,
  options: { database?: Executor; now?: Date } = {},
): Promise<QuoteResult> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  const shown = normalizeCouponCode(code);
  const coupon = await couponByCode(shown, database);
  if (!coupon) return refusal("unknown", shown);
  return quoteFor(database, coupon, planId, buyer, now);
}

/** The rules, for a coupon row already read (under its lock when reserving). */
export async function quoteFor(
  database: Executor,
  coupon: CouponRow,
  planId: PaidPlanId,
  buyer: { id: string; email: string } | null,
  now: Date,
): Promise<QuoteResult> {
  const code = coupon.code;
  if (coupon.disabledAt) return refusal("disabled", code);
  if (coupon.validFrom && now < coupon.validFrom)
    return refusal("not-yet", code, formatDate(coupon.validFrom, "long"));
  if (coupon.validUntil && now >= coupon.validUntil)
    return refusal("expired", code, formatDate(new Date(coupon.validUntil.getTime() - 1), "long"));
  const plan = planById(planId);
  if (coupon.planIds.length > 0 && !coupon.planIds.includes(planId))
    return refusal(
      "plan",
      code,
      `${planLabel(plan)}; it is for ${coupon.planIds.map((id) => planLabel(id)).join(" and ")}`,
    );
  const terms = termsOf(coupon);
  const price = couponPrice(plan.pricePaise, terms);
  if (price === null) return refusal("too-much", code, planLabel(plan));
  const used = await redemptionsOf(database, coupon.id, buyer, now);
  if (coupon.maxRedemptions !== null && used.total >= coupon.maxRedemptions)
    return refusal(used.used >= coupon.maxRedemptions ? "used-up" : "held", code);
  if (buyer) {
    if (used.customer >= coupon.perCustomer) return refusal("customer-used", code);
    if (coupon.firstPurchaseOnly && (await hasBought(database, buyer.id)))
      return refusal("not-first", code);
  }
  return {
    ok: true,
    quote: {
      coupon,
      terms,
      planId,
      listPaise: plan.pricePaise,
      pricePaise: price,
      charges: discountedCharges(terms),
    },
  };
}
