/**
 * The referrer's reward (issue 36, point 9): when the referred person's first payment is
 * captured, a job is queued for the end of the refund window; then, if that payment was not
 * refunded (nor a refund asked for), the referrer gets REFERRAL_REWARD_DAYS of Pro as a grant,
 * once, audited. A refunded payment voids the referral. Row-locked, so a job run twice (or on two
 * instances) rewards once. The window's end is the customer's own refund's too: it is decided by
 * the database's clock, under the payment row's lock that a refund's request takes, so a payment
 * is never both refunded by its customer and rewarded (billing/refund-window.server.ts).
 */
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import { paidPlanFor } from "~/lib/plans";
import { auditBySite } from "../admin/audit.server";
import { db as defaultDb, type Database, type Executor } from "../db";
import { entitlementGrants, payments, referrals, refunds, user as users } from "../db/schema";
import { referralRewardMessage } from "../mail/billing-templates";
import { queueMail } from "../mail/outbox.server";
import { env } from "../env";
import { pendingRefundPaise, refundableLeft } from "../billing/refunds.server";
import { refundWindowOpen } from "../billing/refund-window.server";
import { defineJob, enqueue } from "../jobs/define";

export const REFERRAL_REWARD_JOB = "referral.reward";
export const REFERRAL_GRANT_REASON = "referral";
const DAY_MS = 86_400_000;
const WINDOW_MS = REFUND_WINDOW_DAYS * DAY_MS;

/**
 * A captured payment of `userId`, in the transaction that records it: the first one of someone
 * referred is noted, and their referrer's reward is queued for the end of the refund window.
 */
export async function noteReferredPayment(
  executor: Executor,
  userId: string,
  payment: { providerPaymentId: string; paidAt: Date },
): Promise<void> {
  const [noted] = await executor
    .update(referrals)
    .set({ firstPaymentId: payment.providerPaymentId, firstPaidAt: payment.paidAt })
    .where(and(eq(referrals.referredUserId, userId), isNull(referrals.firstPaymentId)))
    .returning({ id: referrals.id });
  if (!noted) return;
  await enqueue(
    executor,
    referralRewardJob,
    { referralId: noted.id },
    {
      dedupeKey: `${REFERRAL_REWARD_JOB}:${noted.id}`,
      runAt: new Date(payment.paidAt.getTime() + WINDOW_MS),
    },
  );
}

/** "window-open": the job came before the refund window closed by the database's clock. */
export type RewardOutcome = "rewarded" | "voided" | "not-yet" | "window-open" | "settled";

/** Settles one referral: rewards it, voids it, or leaves it for later (before the window ends). */
export async function settleReferral(
  referralId: string,
  options: { database?: Database; now?: Date } = {},
): Promise<RewardOutcome> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  return database.transaction(async (tx) => {
    const [referral] = await tx
      .select()
      .from(referrals)
      .where(eq(referrals.id, referralId))
      .for("update");
    if (!referral || referral.rewardedAt || referral.voidedAt) return "settled";
    if (!referral.firstPaymentId || !referral.firstPaidAt) return "not-yet";
    // The payment's row, locked as a refund's request locks it: a request being stored now is
    // either committed before the reads below, or waits until this reward is.
    await refundableLeft(tx, referral.firstPaymentId);
    // Not `now` (this instance's clock, which may run ahead of the customer's instance): the
    // database's, read under that lock, as the customer's refund must read it.
    if (await refundWindowOpen(tx, referral.firstPaymentId)) return "window-open";
    const [paid] = await tx
      .select({ refunded: payments.amountRefundedPaise, status: payments.status })
      .from(payments)
      .where(eq(payments.providerPaymentId, referral.firstPaymentId));
    const [refund] = await tx
      .select({ id: refunds.providerRefundId })
      .from(refunds)
      .where(eq(refunds.providerPaymentId, referral.firstPaymentId))
      .limit(1);
    // A refund made, or asked for and still on its way to Razorpay.
    const refunded =
      !paid ||
      paid.refunded > 0 ||
      paid.status === "refunded" ||
      Boolean(refund) ||
      (await pendingRefundPaise(tx, referral.firstPaymentId)) > 0;
    if (refunded || !referral.referrerUserId) {
      await tx
        .update(referrals)
        .set({ voidedAt: now, voidReason: refunded ? "refunded" : "account-deleted" })
        .where(eq(referrals.id, referralId));
      return "voided";
    }
    const days = env().REFERRAL_REWARD_DAYS;
    if (days === 0) return "not-yet";
    // After any Pro the referrer already has from grants, so earned days are never lost in an
    // overlap with a trial or an earlier reward.
    const [latest] = await tx
      .select({ endsAt: entitlementGrants.endsAt })
      .from(entitlementGrants)
      .where(
        and(
          eq(entitlementGrants.userId, referral.referrerUserId),
          gt(entitlementGrants.endsAt, now),
        ),
      )
      .orderBy(desc(entitlementGrants.endsAt))
      .limit(1);
    const startsAt = latest?.endsAt ?? now;
    const [grant] = await tx
      .insert(entitlementGrants)
      .values({
        userId: referral.referrerUserId,
        // Pro, as a trial gives it: the grant counts like any other.
        planId: paidPlanFor("monthly").id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + days * DAY_MS),
        reason: REFERRAL_GRANT_REASON,
      })
      .returning({ id: entitlementGrants.id, endsAt: entitlementGrants.endsAt });
    await tx
      .update(referrals)
      .set({ rewardedAt: now, rewardGrantId: grant?.id ?? null, rewardDays: days })
      .where(eq(referrals.id, referralId));
    const [referrer] = await tx
      .select({ email: users.email, name: users.name })
      .from(users)
      .where(eq(users.id, referral.referrerUserId));
    if (referrer && grant)
      await queueMail(
        tx,
        referralRewardMessage({
          to: referrer.email,
          name: referrer.name,
          days,
          from: startsAt,
          until: grant.endsAt,
          accountUrl: `${env().SITE_URL}/account`,
        }),
        `referral-reward:${referral.id}`,
      );
    await auditBySite(tx, {
      action: "referral.reward",
      targetUserId: referral.referrerUserId,
      target: referral.id,
      reason: `A referred customer's first payment passed the ${REFUND_WINDOW_DAYS}-day refund window`,
      before: null,
      after: { days, grantId: grant?.id ?? null, endsAt: grant?.endsAt ?? null },
    });
    return "rewarded";
  });
}

export const referralRewardJob = defineJob({
  name: REFERRAL_REWARD_JOB,
  lane: "maintenance",
  payload: z.object({ referralId: z.uuid() }),
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler({ referralId }) {
    // Queued for the window's end by the payment's time; a job that finds the database's clock
    // short of it (an instance's clock ahead when it was claimed) tries again shortly.
    if ((await settleReferral(referralId)) === "window-open")
      throw new Error("the refund window is still open by the database's clock");
  },
});
