/**
 * Following a referral link and signing up through it (issue 36, point 9). `/r/CODE` leaves the
 * code in a cookie for 30 days; the account created meanwhile (email or Google) is recorded as
 * referred by the code's owner, once per account. Nobody refers themselves: not the same account,
 * nor another account on the same mailbox.
 */
import { eq } from "drizzle-orm";
import { db as defaultDb, type Executor } from "../db";
import { referrals, user as users } from "../db/schema";
import { env } from "../env";
import { mailboxKey } from "../security/person-keys.server";
import { REFERRAL_CODE, referrerOf } from "./codes.server";

export const REFERRAL_COOKIE = "pinout_ref";
const THIRTY_DAYS = 60 * 60 * 24 * 30;

/** Referral links work while a reward is configured (REFERRAL_REWARD_DAYS > 0). */
export function referralsOn(): boolean {
  return env().REFERRAL_REWARD_DAYS > 0;
}

/** The Set-Cookie header that remembers a followed link. */
export function referralCookie(code: string, secure: boolean): string {
  return `${REFERRAL_COOKIE}=${code}; Path=/; Max-Age=${THIRTY_DAYS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The code a request's cookies carry, if it looks like one. */
export function referralCodeInCookies(cookieHeader: string | null | undefined): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== REFERRAL_COOKIE) continue;
    const code = rest.join("=").trim().toUpperCase();
    return REFERRAL_CODE.test(code) ? code : null;
  }
  return null;
}

export type ReferralOutcome = "recorded" | "off" | "unknown" | "self" | "already";

/** Records a new account as referred by the owner of `code`, or says why not. */
export async function recordReferral(
  referred: { id: string; email: string },
  code: string,
  database: Executor = defaultDb(),
): Promise<ReferralOutcome> {
  if (!referralsOn()) return "off";
  const referrerId = await referrerOf(code, database);
  if (!referrerId) return "unknown";
  if (referrerId === referred.id) return "self";
  const [referrer] = await database
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, referrerId));
  if (!referrer) return "unknown";
  if (mailboxKey(referrer.email) === mailboxKey(referred.email)) return "self";
  const inserted = await database
    .insert(referrals)
    .values({ referrerUserId: referrerId, referredUserId: referred.id })
    .onConflictDoNothing()
    .returning({ id: referrals.id });
  return inserted.length > 0 ? "recorded" : "already";
}
