/**
 * What a person's entitlement is decided from, as SQL written once (issue 54): their own
 * subscriptions, their live grants, and the subscriptions of the teams whose seat they hold. The
 * three readers — `entitlementFor`, the account area's one statement and `/api/desktop/me`'s —
 * embed these columns, so the seat-holder join (a seat counts only while its holder is a member)
 * and the seat's rank exist here only. A leaf: SQL text and the mapping of its rows.
 */
import type { SubscriptionRow } from "../db/schema";

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

/**
 * The place of the seat row `seat` (a table name or alias of `team_seats`) among its team's seats
 * held by members, oldest given first (1-based): only the first paid seats give Pro.
 */
export const seatRankSql = (seat: string): string =>
  `(select count(*)::int from team_seats r
     join member rm on rm.organization_id = r.organization_id and rm.user_id = r.user_id
     where r.organization_id = ${seat}.organization_id
       and (r.assigned_at, r.user_id) <= (${seat}.assigned_at, ${seat}.user_id))`;

/**
 * Until when the upfront amount of seats added mid-cycle to the team subscription `subscription`
 * (a table name or alias of `subscriptions`) was paid for: null without one, or unpaid. It pays
 * for the rest of the cycle of the subscription the change replaces, so it ends with that cycle:
 * at the cycle's recorded end, and not at all once that subscription has moved to a later cycle.
 */
export const upfrontPaidUntilSql = (subscription: string): string =>
  `(select least(tt.period_end, rs.current_end) from team_seat_topups tt
     join subscriptions rs on rs.id = ${subscription}.replaces_subscription_id
     where tt.subscription_id = ${subscription}.id
       and rs.current_start < tt.period_end
       and exists (select 1 from payments pp
         where pp.subscription_id = ${subscription}.id and pp.status = 'captured'))`;

/**
 * The seats the user `holder` (an SQL expression) holds, each with its team (`o`) and the team's
 * subscriptions (`ts`, one row per subscription): a seat whose holder left the team gives nothing.
 */
export const heldSeatsSql = (holder: string): string =>
  `team_seats seat
       join member m on m.organization_id = seat.organization_id and m.user_id = seat.user_id
       join subscriptions ts on ts.team_id = seat.organization_id
       join organization o on o.id = seat.organization_id
       where seat.user_id = ${holder}`;

/**
 * Three JSON columns — `subscriptions` (the user's own, newest first), `grants` (live at `now`)
 * and `seats` — for the user `user` of the statement that embeds them; `user` and `now` are SQL
 * expressions (a column, a placeholder or a literal).
 */
export function entitlementSourceColumns(user: string, now: string): string {
  return `(select coalesce(json_agg(json_build_object(
         'planId', plan_id, 'status', status, 'replaces', replaces_subscription_id,
         'createdMs', ${ms("created_at")}, 'currentEndMs', ${ms("current_end")},
         'chargeAtMs', ${ms("charge_at")}, 'endReason', end_reason,
         'cancelAtCycleEnd', cancel_at_cycle_end, 'paidCount', paid_count)
         order by created_at desc), '[]'::json)
       from subscriptions where user_id = ${user}) as subscriptions,
     (select coalesce(json_agg(json_build_object(
         'planId', plan_id, 'reason', reason,
         'startsMs', ${ms("starts_at")}, 'endsMs', ${ms("ends_at")})), '[]'::json)
       from entitlement_grants where user_id = ${user} and ends_at > ${now}) as grants,
     (select coalesce(json_agg(json_build_object(
         'planId', ts.plan_id, 'status', ts.status, 'currentEndMs', ${ms("ts.current_end")},
         'chargeAtMs', ${ms("ts.charge_at")}, 'endReason', ts.end_reason,
         'cancelAtCycleEnd', ts.cancel_at_cycle_end, 'paidCount', ts.paid_count,
         'seats', ts.seats,
         'seatRank', ${seatRankSql("seat")},
         'upfrontPaidUntilMs', ${ms(upfrontPaidUntilSql("ts"))},
         'teamId', o.id, 'teamName', o.name)), '[]'::json)
       from ${heldSeatsSql(user)}) as seats`;
}

/** The three columns as the drivers parse them (JSON, timestamps as epoch milliseconds). */
export interface EntitlementSourcesRow {
  subscriptions: {
    planId: string;
    status: SubscriptionRow["status"];
    replaces: string | null;
    createdMs: number;
    currentEndMs: number | null;
    chargeAtMs: number | null;
    endReason: SubscriptionRow["endReason"];
    cancelAtCycleEnd: boolean;
    paidCount: number;
  }[];
  grants: { planId: string; reason: string; startsMs: number; endsMs: number }[];
  seats: {
    planId: string;
    status: SubscriptionRow["status"];
    currentEndMs: number | null;
    chargeAtMs: number | null;
    endReason: string | null;
    cancelAtCycleEnd: boolean;
    paidCount: number;
    seats: number;
    seatRank: number;
    upfrontPaidUntilMs: number | null;
    teamId: string;
    teamName: string;
  }[];
}

/** A user's own subscription as the account pages and the entitlement read it. */
export interface SourceSubscription {
  planId: string;
  status: SubscriptionRow["status"];
  replacesSubscriptionId: string | null;
  createdAt: Date;
  currentEnd: Date | null;
  chargeAt: Date | null;
  endReason: SubscriptionRow["endReason"];
  cancelAtCycleEnd: boolean;
  paidCount: number;
}

export interface SourceSeat {
  planId: string;
  status: SubscriptionRow["status"];
  currentEnd: Date | null;
  chargeAt: Date | null;
  endReason: string | null;
  cancelAtCycleEnd: boolean;
  paidCount: number;
  seats: number;
  seatRank: number;
  upfrontPaidUntil: Date | null;
  team: { id: string; name: string };
}

export interface SourceGrant {
  planId: string;
  /** Why it was given ("trial" for a free trial's). */
  reason: string;
  startsAt: Date;
  endsAt: Date;
}

/** The sources of one row (none of anything when there is no row: an unknown user). */
export interface ReadSources {
  subscriptions: SourceSubscription[];
  grants: SourceGrant[];
  seats: SourceSeat[];
}

const dateOf = (value: number | null) => (value === null ? null : new Date(value));

export function sourcesOfRow(row: Partial<EntitlementSourcesRow> | undefined): ReadSources {
  return {
    subscriptions: (row?.subscriptions ?? []).map((subscription) => ({
      planId: subscription.planId,
      status: subscription.status,
      replacesSubscriptionId: subscription.replaces,
      createdAt: new Date(subscription.createdMs),
      currentEnd: dateOf(subscription.currentEndMs),
      chargeAt: dateOf(subscription.chargeAtMs),
      cancelAtCycleEnd: subscription.cancelAtCycleEnd,
      paidCount: subscription.paidCount,
      endReason: subscription.endReason,
    })),
    grants: (row?.grants ?? []).map((grant) => ({
      planId: grant.planId,
      reason: grant.reason,
      startsAt: new Date(grant.startsMs),
      endsAt: new Date(grant.endsMs),
    })),
    seats: (row?.seats ?? []).map((seat) => ({
      planId: seat.planId,
      status: seat.status,
      currentEnd: dateOf(seat.currentEndMs),
      chargeAt: dateOf(seat.chargeAtMs),
      endReason: seat.endReason,
      cancelAtCycleEnd: seat.cancelAtCycleEnd,
      paidCount: seat.paidCount,
      seats: seat.seats,
      seatRank: seat.seatRank,
      upfrontPaidUntil: dateOf(seat.upfrontPaidUntilMs),
      team: { id: seat.teamId, name: seat.teamName },
    })),
  };
}
