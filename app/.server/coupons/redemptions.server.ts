/**
 * Which redemptions of a coupon count against its limits, decided in one place: not those whose
 * subscription ended with nothing paid (an abandoned checkout), nor a reservation never linked
 * to a subscription after an hour (a process killed between reserving and creating it).
 */
import { sql, type SQL } from "drizzle-orm";

/** How long a reservation without a subscription holds its place. */
export const UNLINKED_RESERVATION_MS = 60 * 60 * 1000;

/**
 * A condition on `coupon_redemptions` (aliased as itself): the redemption counts. Raw SQL with
 * qualified names, because Drizzle writes columns unqualified in single-table queries.
 */
export function redemptionCounts(now: Date): SQL {
  const cutoff = new Date(now.getTime() - UNLINKED_RESERVATION_MS).toISOString();
  return sql`(
    ("coupon_redemptions"."subscription_id" is null and "coupon_redemptions"."created_at" > ${cutoff})
    or exists (
      select 1 from "subscriptions" s
      where s.id = "coupon_redemptions"."subscription_id"
        and not (s.status in ('cancelled', 'expired') and s.paid_count = 0)
    )
  )`;
}
