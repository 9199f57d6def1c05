/**
 * Taking a coupon at checkout: a reservation made under the coupon row's lock after checking
 * every rule again, so two checkouts at once cannot both take the last redemption (or a buyer's
 * one); linked to the subscription once Razorpay has made it; deleted if Razorpay refused it.
 */
import { eq } from "drizzle-orm";
import { isPaidPlanId, type PaidPlanId } from "~/lib/plans";
import type { Database, Executor } from "../db";
import { couponRedemptions, coupons, subscriptions } from "../db/schema";
import { AppError } from "../http/errors";
import { mailboxKey } from "../security/person-keys.server";
import { type CouponQuote, type QuoteResult, quoteFor } from "./quote.server";

export async function reserveCoupon(
  database: Database,
  couponId: string,
  planId: PaidPlanId,
  buyer: { id: string; email: string },
): Promise<{ redemptionId: string; quote: CouponQuote }> {
  return database.transaction(async (tx) => {
    const [coupon] = await tx.select().from(coupons).where(eq(coupons.id, couponId)).for("update");
    if (!coupon)
      throw new AppError("invalid", "That coupon no longer exists.", { field: "coupon" });
    const result = await quoteFor(tx, coupon, planId, buyer, new Date());
    if (!result.ok) throw new AppError("conflict", result.message, { field: "coupon" });
    const [row] = await tx
      .insert(couponRedemptions)
      .values({ couponId, userId: buyer.id, mailboxKey: mailboxKey(buyer.email) })
      .returning({ id: couponRedemptions.id });
    if (!row) throw new Error("coupon redemption was not stored");
    return { redemptionId: row.id, quote: result.quote };
  });
}

/**
 * A checkout reused with its coupon (a retry after the payment window was closed, or a page
 * opened earlier): every rule is checked again under the coupon's lock, since the coupon may have
 * been disabled, expired or taken by others since (issue 53, finding 6). The buyer's own hold is
 * not counted against them; when the rules still allow it, the hold starts again from now.
 */
export async function recheckHeldCoupon(
  database: Database,
  subscription: { id: string; couponId: string; planId: string },
  buyer: { id: string; email: string },
): Promise<QuoteResult> {
  return database.transaction(async (tx) => {
    const [coupon] = await tx
      .select()
      .from(coupons)
      .where(eq(coupons.id, subscription.couponId))
      .for("update");
    if (!coupon || !isPaidPlanId(subscription.planId))
      return { ok: false, reason: "unknown", message: "That coupon no longer exists." };
    const now = new Date();
    const result = await quoteFor(tx, coupon, subscription.planId, buyer, now);
    if (result.ok)
      await tx
        .update(couponRedemptions)
        .set({ createdAt: now })
        .where(eq(couponRedemptions.subscriptionId, subscription.id));
    return result;
  });
}

/** The subscription made with the coupon: the redemption and the subscription name each other. */
export async function linkCoupon(
  database: Database,
  redemptionId: string,
  subscriptionId: string,
  couponId: string,
): Promise<void> {
  await database.transaction(async (tx) => {
    await tx
      .update(couponRedemptions)
      .set({ subscriptionId })
      .where(eq(couponRedemptions.id, redemptionId));
    await tx.update(subscriptions).set({ couponId }).where(eq(subscriptions.id, subscriptionId));
  });
}

/** Razorpay did not make the subscription: the reservation goes. */
export async function dropReservation(executor: Executor, redemptionId: string): Promise<void> {
  await executor.delete(couponRedemptions).where(eq(couponRedemptions.id, redemptionId));
}
