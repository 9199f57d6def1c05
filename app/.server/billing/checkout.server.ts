/**
 * Buying: a Razorpay subscription for the buyer (reused while unpaid, never duplicated), then the
 * checkout handler's signature, which only says "payment received, activating…". The
 * subscription becomes Pro when Razorpay confirms it (webhook or resync).
 */
import { type Buyer, ofBuyer, personBuyer } from "./buyer";
import { STATUS_RULES } from "~/lib/subscription-state";
import { settleOpenCheckouts } from "./open-checkouts.server";
import { createHmac } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Currency } from "~/lib/money";
import { type PaidPlanId, planById, planPriceIn, planPriceLabel } from "~/lib/plans";
import { type Database, db as defaultDb, type Executor } from "../db";
import { type CouponRow, subscriptions, type SubscriptionRow } from "../db/schema";
import { couponByCode, refusalMessage } from "../coupons/quote.server";
import { normalizeCouponCode } from "~/lib/coupons";
import {
  dropReservation,
  linkCoupon,
  recheckHeldCoupon,
  reserveCoupon,
} from "../coupons/reserve.server";
import { logger } from "../logger";
import { z } from "zod";
import { defineJob, enqueue } from "../jobs/define";
import { resyncWithPayments } from "./missed-payments.server";
import { LeaseBusyError, withLease } from "../security/lease.server";
import { safeEqual } from "../security/tokens";
import { providerPlanFor } from "./plans.server";
import { paymentsConfig, razorpay } from "./provider.server";
import { RazorpayError, type RazorpayClient } from "./razorpay/client";
import type { RazorpaySubscription } from "./razorpay/types";
import {
  applyProviderSubscription,
  liveSubscriptionsOf,
  openCheckoutsOf,
} from "./subscriptions.server";
import { AppError } from "../http/errors";
import { paidStartAfterTrial } from "../trials/trials.server";

export const RESYNC_JOB = "razorpay.resync";

/** How many cycles a subscription runs before Razorpay completes it (about ten years). */
export const TOTAL_COUNT = { monthly: 120, yearly: 10 } as const;

/**
 * An order as the one checkout takes it (issue 54, one buyer). Its buyer's domain makes it — a
 * person's plan with `proOrder` below, a team's seats with `seatsOrder` (teams/checkout.server) —
 * and says what to check first, which open checkout is the same order, what to create at Razorpay
 * and what to record beside the stored subscription. The steps and their order are
 * `startCheckout`'s alone.
 */
export interface CheckoutOrder {
  buyer: Buyer;
  /** Words for a second checkout of the same buyer while this one is being started. */
  busyMessage: string;
  /** Checks and reads, under the buyer's lease, before anything is created. */
  prepare(database: Database, client: RazorpayClient): Promise<PreparedOrder>;
}

export interface PreparedOrder {
  /** The buyer's open checkouts: one for the same order is reused, the others let go. */
  open: readonly SubscriptionRow[];
  sameOrder(open: SubscriptionRow, fresh: RazorpaySubscription): Promise<boolean>;
  /** The refusal when an open checkout was paid meanwhile; null when that does not stop this. */
  paidMeanwhile: AppError | null;
  /** The new subscription at Razorpay (and what must be held for it, such as a coupon). */
  create(): Promise<RazorpaySubscription>;
  /** What is recorded beside the stored subscription: what it replaces, a coupon, an upfront. */
  complete(row: SubscriptionRow, readAt: Date): Promise<CheckoutRow>;
}

/**
 * The checkout to pay; `couponNotice` says, in words for the buyer, that the coupon their open
 * checkout was made with no longer applies and this one is at the full price (issue 53, finding 6).
 */
export type CheckoutRow = SubscriptionRow & { couponNotice?: string };

/** The lease a buyer's checkouts take turns on (the keys the two paths had before issue 54). */
function checkoutLease(buyer: Buyer): string {
  switch (buyer.kind) {
    case "person":
      return `checkout:${buyer.userId}`;
    case "team":
      return `team-checkout:${buyer.teamId}`;
  }
}

/**
 * The unpaid subscription to open Razorpay checkout with, for a person or a team: the buyer's open
 * one for this order if Razorpay still has it unpaid, else a new one. Open checkouts for other
 * orders are cancelled so that at most one can ever be paid.
 */
export async function startCheckout(
  order: CheckoutOrder,
  options: {
    database?: Database;
    client?: RazorpayClient;
    /** The buyer's analytics id, when they consented (the funnel's "paid" step). */
    analyticsClientId?: string | null;
  } = {},
): Promise<CheckoutRow> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  // One at a time per buyer, on every instance: two tabs, two owners or a double submit would
  // otherwise both find no open checkout and create two subscriptions that could both be paid.
  // The second waits, then reuses the first's open checkout.
  try {
    const row = await withLease(
      checkoutLease(order.buyer),
      async () => {
        const prepared = await order.prepare(database, client);
        const reused = await settleOpenCheckouts(prepared.open, prepared, database, client);
        if (reused) return reused;
        const readAt = new Date();
        const created = await prepared.create();
        const stored = await applyProviderSubscription(database, created, readAt);
        if (!stored) throw new Error(`subscription ${created.id} was not stored`);
        return prepared.complete(stored, readAt);
      },
      { ttlSeconds: 60, waitMs: 20_000, database },
    );
    if (!options.analyticsClientId || row.analyticsClientId === options.analyticsClientId)
      return row;
    await database
      .update(subscriptions)
      .set({ analyticsClientId: options.analyticsClientId })
      .where(eq(subscriptions.id, row.id));
    return { ...row, analyticsClientId: options.analyticsClientId };
  } catch (error) {
    if (error instanceof LeaseBusyError) throw new AppError("conflict", order.busyMessage);
    throw error;
  }
}

/**
 * Records that `row` replaces `replaces` (a plan switch or a change of seats): a team's choice of
 * named or floating seats, and its overage allowance, go on with the seats (issue 57).
 */
export async function markReplacing(
  database: Executor,
  row: SubscriptionRow,
  replaces: SubscriptionRow,
): Promise<SubscriptionRow> {
  const carried = {
    replacesSubscriptionId: replaces.id,
    seatMode: replaces.seatMode,
    overagePercent: replaces.overagePercent,
  };
  await database.update(subscriptions).set(carried).where(eq(subscriptions.id, row.id));
  return { ...row, ...carried };
}

export interface ProOrderOptions {
  /** A plan switch: the new subscription starts when this one's period ends. */
  replaces?: SubscriptionRow;
  /**
   * Bought during a free trial, to start when the trial ends (issue 36, point 4): the mandate is
   * authorised now and the first charge is at the trial's end. Refused when the trial ends
   * within the hour or has ended, so nobody is charged today who chose to be charged later.
   */
  afterTrial?: boolean;
  /**
   * A coupon code (issue 36, points 6–8): checked again and reserved under the coupon's lock,
   * its Razorpay offer linked to the new subscription; a refusal says which rule failed.
   */
  couponCode?: string | null;
  /**
   * What it is sold in (issue 56): rupees, or a currency sold abroad to a buyer outside India
   * (checked by `openCheckout` against what is sold now). A switch keeps the currency of the
   * subscription it replaces, whatever is asked: a buyer who moves buys anew.
   */
  currency?: Currency;
}

/** A person's order of a paid plan: bought now, after their trial, or as a switch of plans. */
export function proOrder(
  user: { id: string; email: string },
  planId: PaidPlanId,
  options: ProOrderOptions = {},
): CheckoutOrder {
  return {
    buyer: personBuyer(user.id),
    busyMessage: "Another checkout for your account is being started. Wait a moment and try again.",
    prepare: (database, client) => prepareProOrder(user, planId, options, database, client),
  };
}

async function prepareProOrder(
  user: { id: string; email: string },
  planId: PaidPlanId,
  options: ProOrderOptions,
  database: Database,
  client: RazorpayClient,
): Promise<PreparedOrder> {
  const plan = planById(planId);
  const replaces = options.replaces ?? null;
  const currency: Currency = replaces?.currency ?? options.currency ?? "INR";
  // Coupons are rupee discounts (decision 0061); the page says so before it gets here.
  if (options.couponCode && currency !== "INR")
    throw new AppError("invalid", "Coupons apply to prices in rupees only.", { field: "coupon" });
  const trialEnd =
    options.afterTrial && !replaces ? await paidStartAfterTrial(user.id, database) : null;
  if (options.afterTrial && !replaces && !trialEnd)
    throw new AppError(
      "conflict",
      "Your free trial ends within the hour or has ended, so Pro cannot start after it. Choose to start now.",
    );

  // The coupon by its code: its rules are checked when it is reserved, after any open checkout
  // holding it was reused or let go (a reused one holds its reservation already).
  // On a switch only to the same plan (the cancellation flow's discount, issue 59).
  const couponAllowed = !replaces || replaces.planId === planId;
  let coupon =
    options.couponCode && couponAllowed ? await couponNamed(options.couponCode, database) : null;
  let couponNotice: string | undefined;
  let reserved: { redemptionId: string } | null = null;

  if (!replaces) {
    const live = await liveSubscriptionsOf(user.id, database);
    if (live.some((row) => STATUS_RULES[row.status].manageable))
      throw new AppError(
        "conflict",
        "You already have a subscription. Manage it on Account → Subscription.",
      );
  }

  return {
    open: await openCheckoutsOf(user.id, database),
    // The same plan, replacing the same subscription; outside a switch, starting at the same
    // moment (now, or the trial's end): a checkout opened for "now" is never paid as one for
    // "after the trial", nor the other way round.
    async sameOrder(open) {
      const same =
        open.planId === planId &&
        open.currency === currency &&
        open.replacesSubscriptionId === (replaces?.id ?? null) &&
        open.couponId === (coupon?.id ?? null) &&
        (replaces !== null || unixSeconds(open.startAt) === unixSeconds(trialEnd));
      if (!same || !open.couponId) return same;
      // Reused with its coupon: the coupon's rules are checked again (it may have been
      // disabled, have expired or been taken by others since), and its hold renewed. One that
      // no longer applies makes this checkout go like an abandoned one, replaced below at the
      // full price.
      const held = await recheckHeldCoupon(database, { ...open, couponId: open.couponId }, user);
      if (held.ok) return true;
      coupon = null;
      couponNotice = `${held.message} Your checkout is now at the full price, ${planPriceLabel(plan, currency)}.`;
      return false;
    },
    // Paid meanwhile (its webhook not in yet): this person has a subscription now.
    paidMeanwhile: replaces
      ? null
      : new AppError(
          "conflict",
          "You already have a subscription. Manage it on Account → Subscription.",
        ),
    async create() {
      const { providerPlanId } = await providerPlanFor(planId, database, client, {
        currency,
        amount: planPriceIn(plan, currency),
      });
      const startAt = replaces?.currentEnd ?? trialEnd;
      reserved = coupon ? await reserveCoupon(database, coupon.id, planId, user) : null;
      try {
        return await client.createSubscription({
          plan_id: providerPlanId,
          total_count: TOTAL_COUNT[plan.billingCycle ?? "monthly"],
          customer_notify: 1,
          ...(startAt && startAt > new Date()
            ? { start_at: Math.floor(startAt.getTime() / 1000) }
            : {}),
          ...(coupon ? { offer_id: coupon.providerOfferId } : {}),
          notes: {
            user_id: user.id,
            plan_id: planId,
            email: user.email,
            currency,
            ...(replaces ? { replaces: replaces.providerSubscriptionId } : {}),
            ...(coupon ? { coupon: coupon.code } : {}),
          },
        });
      } catch (error) {
        if (reserved) await dropReservation(database, reserved.redemptionId);
        // Razorpay refused the coupon's offer (disabled, expired, used up or unknown in its
        // Dashboard): the buyer gets a plain sentence, the operator Razorpay's words in the log.
        if (coupon && error instanceof RazorpayError && error.field === "offer_id") {
          logger().warn(
            { err: error, coupon: coupon.code, offerId: coupon.providerOfferId },
            "Razorpay refused a coupon's offer at checkout",
          );
          throw new AppError(
            "conflict",
            `The coupon ${coupon.code} cannot be used at the moment. Buy without it at the full price, or write to us and we will sort it out.`,
            { field: "coupon" },
          );
        }
        throw error;
      }
    },
    async complete(row) {
      if (coupon && reserved) {
        await linkCoupon(database, reserved.redemptionId, row.id, coupon.id);
        const linked = { ...row, couponId: coupon.id };
        // The cancellation flow's discount is also a switch: it replaces the current period.
        return replaces ? markReplacing(database, linked, replaces) : linked;
      }
      if (replaces) return markReplacing(database, row, replaces);
      return couponNotice ? { ...row, couponNotice } : row;
    },
  };
}

/** The coupon a checkout names, or the AppError saying there is none. */
async function couponNamed(code: string, database: Database): Promise<CouponRow> {
  const coupon = await couponByCode(code, database);
  if (!coupon)
    throw new AppError("invalid", refusalMessage("unknown", normalizeCouponCode(code)), {
      field: "coupon",
    });
  return coupon;
}

/** A moment as Razorpay's timestamps give it (whole seconds), or null. */
function unixSeconds(date: Date | null): number | null {
  return date ? Math.floor(date.getTime() / 1000) : null;
}

/** Razorpay's checkout signature for subscriptions: HMAC(payment_id|subscription_id, key secret). */
export function checkoutSignature(
  paymentId: string,
  subscriptionId: string,
  keySecret: string,
): string {
  return createHmac("sha256", keySecret).update(`${paymentId}|${subscriptionId}`).digest("hex");
}

export interface CheckoutResponse {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

/**
 * Checks the checkout handler's payload against *our* record of the buyer's subscription (the
 * id in the payload is only used to pick which of the buyer's own subscriptions it claims to
 * be). A good signature records the payment id and asks for a resync; it changes no status.
 */
export async function verifyCheckout(
  /** The buyer: a person, or the team whose seats are bought (its page checked the role). */
  buyer: Buyer,
  response: CheckoutResponse,
  options: { database?: Database; keySecret?: string } = {},
): Promise<SubscriptionRow | null> {
  const database = options.database ?? defaultDb();
  const keySecret = options.keySecret ?? paymentsConfig().keySecret;
  const [ours] = await database
    .select()
    .from(subscriptions)
    .where(
      and(
        ofBuyer(buyer),
        eq(subscriptions.providerSubscriptionId, response.razorpay_subscription_id),
      ),
    );
  if (!ours) return null;
  const expected = checkoutSignature(
    response.razorpay_payment_id,
    ours.providerSubscriptionId,
    keySecret,
  );
  if (!safeEqual(expected, response.razorpay_signature)) return null;
  await database.transaction(async (tx) => {
    await tx
      .update(subscriptions)
      .set({ checkoutPaymentId: response.razorpay_payment_id, checkoutVerifiedAt: new Date() })
      .where(and(eq(subscriptions.id, ours.id), isNull(subscriptions.checkoutVerifiedAt)));
    // Activation must not depend on the webhook alone (a misconfigured URL would strand a buyer).
    await enqueue(
      tx,
      resyncJob,
      { providerSubscriptionId: ours.providerSubscriptionId },
      { dedupeKey: `checkout-resync:${response.razorpay_payment_id}` },
    );
  });
  return ours;
}

/**
 * Takes Razorpay's state of a subscription and its payments (money lane): after checkout without
 * waiting for a webhook, and for a subscription no webhook has updated for a day (stale.server).
 */
export const resyncJob = defineJob({
  name: RESYNC_JOB,
  lane: "money",
  payload: z.object({ providerSubscriptionId: z.string().min(1).max(100) }),
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler({ providerSubscriptionId }) {
    await resyncWithPayments(providerSubscriptionId);
  },
});
