/**
 * What the account page shows about referrals: the customer's own link and what it earned, and,
 * for someone who came through a link, what their first payment did for the friend who sent it
 * (issue 36, point 9: the reward shown to both).
 */
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { couponSummary } from "~/lib/coupons";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import { couponByCode, termsOf } from "../coupons/quote.server";
import { db as defaultDb, type Executor } from "../db";
import { entitlementGrants, referrals } from "../db/schema";
import { env } from "../env";
import { referralCodeOf } from "./codes.server";
import { referralsOn } from "./record.server";
import type { ReferralMade } from "../account/account-state.server";

export interface ReferralReward {
  days: number;
  /** ISO: when it was given, and the Pro days it added (from–to). */
  at: string;
  from: string | null;
  until: string | null;
}

export interface ReferralOverview {
  link: string;
  /** "10% off on the first payment" or null when no referral coupon is configured. */
  friendGets: string | null;
  rewardDays: number;
  signedUp: number;
  paid: number;
  /** Paid, waiting for the refund window to pass. */
  waiting: number;
  rewards: ReferralReward[];
}

/**
 * The customer's referral card, or null while referral links are off. `known`: the code and
 * referrals the account area's one statement read already (decision 0035); a code is made here
 * the first time the card shows.
 */
export async function referralOverviewOf(
  userId: string,
  database: Executor = defaultDb(),
  known?: { code: string | null; made: readonly ReferralMade[] },
): Promise<ReferralOverview | null> {
  if (!referralsOn()) return null;
  const config = env();
  const code = known?.code ?? (await referralCodeOf(userId, database));
  const rows = known?.made ?? (await referralsMadeBy(userId, database));
  const coupon = config.REFERRAL_COUPON
    ? await couponByCode(config.REFERRAL_COUPON, database)
    : null;
  return {
    link: `${config.SITE_URL.replace(/\/+$/, "")}/r/${code}`,
    friendGets: coupon && !coupon.disabledAt ? couponSummary(termsOf(coupon), null) : null,
    rewardDays: config.REFERRAL_REWARD_DAYS,
    signedUp: rows.length,
    paid: rows.filter((row) => row.firstPaidAt && !row.voidedAt).length,
    waiting: rows.filter((row) => row.firstPaidAt && !row.rewardedAt && !row.voidedAt).length,
    rewards: rows.flatMap((row) =>
      row.rewardedAt
        ? [
            {
              days: row.rewardDays ?? 0,
              at: row.rewardedAt.toISOString(),
              from: row.grantFrom?.toISOString() ?? null,
              until: row.grantUntil?.toISOString() ?? null,
            },
          ]
        : [],
    ),
  };
}

function referralsMadeBy(userId: string, database: Executor): Promise<ReferralMade[]> {
  return database
    .select({
      firstPaidAt: referrals.firstPaidAt,
      rewardedAt: referrals.rewardedAt,
      rewardDays: referrals.rewardDays,
      voidedAt: referrals.voidedAt,
      grantFrom: entitlementGrants.startsAt,
      grantUntil: entitlementGrants.endsAt,
    })
    .from(referrals)
    .leftJoin(entitlementGrants, eq(entitlementGrants.id, referrals.rewardGrantId))
    .where(eq(referrals.referrerUserId, userId))
    .orderBy(asc(referrals.createdAt));
}

/** For someone who signed up through a link: where their referral stands, in words. */
export async function referredNoteOf(
  userId: string,
  database: Executor = defaultDb(),
): Promise<string | null> {
  const [row] = await database
    .select()
    .from(referrals)
    .where(and(eq(referrals.referredUserId, userId), isNotNull(referrals.referrerUserId)));
  return referredNote(row ?? null);
}

/** The same from the referral that brought the user (the account area's one read). */
export function referredNote(
  row: Omit<ReferralMade, "grantFrom" | "grantUntil"> | null,
): string | null {
  if (!row) return null;
  if (row.rewardedAt)
    return `You joined through a friend's link: your first payment earned them ${row.rewardDays ?? 0} days of Pro. Thank you.`;
  if (row.voidedAt) return "You joined through a friend's link.";
  if (row.firstPaidAt)
    return `You joined through a friend's link: once your first payment is past the ${REFUND_WINDOW_DAYS}-day refund window, they get ${env().REFERRAL_REWARD_DAYS} days of Pro.`;
  return `You joined through a friend's link: when you first pay for Pro, they get ${env().REFERRAL_REWARD_DAYS} days of Pro.`;
}
