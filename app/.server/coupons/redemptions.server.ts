/**
 * Which redemptions of a coupon count against its limits, decided in one place (issue 53,
 * finding 7). A redemption is *used* once its subscription is paid or authorised (and stays used
 * unless it ended with nothing paid). Before that it is only *held*: a checkout not paid yet
 * (or a reservation a killed process never linked) keeps its place for HOLD_MS, so two people
 * cannot pay for the last use at once, but checkouts nobody pays do not use a coupon up. A
 * buyer's own holds never count against them: their retry reuses that checkout with its offer.
 */
import { checkoutOpen, statusesWhere, SUBSCRIPTION_STATUSES } from "~/lib/subscription-state";
import { statusList } from "../billing/subscription-state.server";
import { sql, type SQL } from "drizzle-orm";

/** How long a checkout not yet paid holds its use of a coupon (renewed when a retry reuses it). */
export const HOLD_MS = 30 * 60 * 1000;

const OPEN_CHECKOUT = statusList(SUBSCRIPTION_STATUSES.filter(checkoutOpen));
const ENDED = statusList(statusesWhere((rules) => rules.final));

/**
 * The redemption's subscription was paid or authorised. Raw SQL with qualified names, because
 * Drizzle writes columns unqualified in single-table queries.
 */
export function redemptionUsed(): SQL {
  return sql`exists (
    select 1 from "subscriptions" s
    where s.id = "coupon_redemptions"."subscription_id"
      and s.status not in ${OPEN_CHECKOUT}
      and not (s.status in ${ENDED} and s.paid_count = 0)
  )`;
}

/** A hold still running: not paid yet, taken (or renewed) within HOLD_MS; not `exceptUserId`'s. */
export function redemptionHeld(now: Date, exceptUserId: string | null = null): SQL {
  const cutoff = new Date(now.getTime() - HOLD_MS).toISOString();
  return sql`(
    "coupon_redemptions"."created_at" > ${cutoff}
    ${exceptUserId ? sql`and "coupon_redemptions"."user_id" is distinct from ${exceptUserId}` : sql``}
    and (
      "coupon_redemptions"."subscription_id" is null
      or exists (
        select 1 from "subscriptions" s
        where s.id = "coupon_redemptions"."subscription_id" and s.status in ${OPEN_CHECKOUT}
      )
    )
  )`;
}

/** A condition on `coupon_redemptions` (aliased as itself): the redemption counts. */
export function redemptionCounts(now: Date, exceptHoldsOf: string | null = null): SQL {
  return sql`(${redemptionUsed()} or ${redemptionHeld(now, exceptHoldsOf)})`;
}
