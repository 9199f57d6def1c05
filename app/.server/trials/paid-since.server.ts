import { type SQL, sql } from "drizzle-orm";

/**
 * Whether the account `userId` has paid (a captured payment) since `since`: the trial funnel's
 * "paid" and a trial end's "converted". A payment's time is Razorpay's, whole seconds, so `since`
 * is taken to the second: a payment made in the second the trial started counts.
 */
export function paidSince(userId: SQL | string, since: SQL | Date): SQL<boolean> {
  const from = since instanceof Date ? sql`${since.toISOString()}::timestamptz` : since;
  return sql<boolean>`exists (
    select 1 from payments p
     where p.user_id = ${userId}
       and p.status = 'captured'
       and p.paid_at >= date_trunc('second', ${from}))`;
}
