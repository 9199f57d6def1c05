/**
 * Referrals on the cockpit (issue 36, point 9): by referrer, the people who signed up through
 * their link in the period, how many of them paid, what they have paid (net of refunds), and the
 * rewards given. From our own tables: it needs no analytics consent.
 */
import { and, gte, lt, sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { referrals, user as users } from "../db/schema";
import type { Period } from "./period";

export interface ReferrerRow {
  /** The referrer's email, or "Deleted account". */
  referrer: string;
  referrerId: string | null;
  signedUp: number;
  paid: number;
  /** Net of refunds, in paise: everything the referred people paid, not only first payments. */
  revenuePaise: number;
  rewards: number;
}

export async function referralsFor(
  period: Period,
  database: Database = defaultDb(),
): Promise<ReferrerRow[]> {
  const rows = await database
    .select({
      referrerId: referrals.referrerUserId,
      email: users.email,
      signedUp: sql<number>`count(*)::int`,
      paid: sql<number>`count("referrals"."first_payment_id")::int`,
      rewards: sql<number>`count("referrals"."rewarded_at")::int`,
      revenuePaise: sql<number>`coalesce(sum((
        select coalesce(sum(p.amount_paise - p.amount_refunded_paise), 0)
          from payments p
         where p.user_id = "referrals"."referred_user_id" and p.status in ('captured', 'refunded')
      )), 0)::int`,
    })
    .from(referrals)
    .leftJoin(users, sql`${users.id} = "referrals"."referrer_user_id"`)
    .where(and(gte(referrals.createdAt, period.from), lt(referrals.createdAt, period.to)))
    .groupBy(referrals.referrerUserId, users.email);
  return rows
    .map((row) => ({
      referrer: row.email ?? "Deleted account",
      referrerId: row.referrerId,
      signedUp: Number(row.signedUp),
      paid: Number(row.paid),
      revenuePaise: Number(row.revenuePaise),
      rewards: Number(row.rewards),
    }))
    .sort((a, b) => b.revenuePaise - a.revenuePaise || b.signedUp - a.signedUp);
}
