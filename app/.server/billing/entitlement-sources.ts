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
 * The named seats the user `holder` (an SQL expression) holds, each with its team (`o`) and the
 * team's subscriptions (`ts`, one row per subscription): a seat whose holder left the team gives
 * nothing, and neither does a seat of a subscription whose seats float.
 */
export const heldSeatsSql = (holder: string): string =>
  `team_seats seat
       join member m on m.organization_id = seat.organization_id and m.user_id = seat.user_id
       join subscriptions ts on ts.team_id = seat.organization_id and ts.seat_mode = 'named'
       join organization o on o.id = seat.organization_id
       where seat.user_id = ${holder}`;

/**
 * The teams of the member `user` whose subscription's seats float (issue 57, point 2), with the
 * team (`o`) and the subscription (`ts`): every member may run Pro on a machine holding a lease.
 */
export const floatingSeatsSql = (user: string): string =>
  `member m
       join subscriptions ts on ts.team_id = m.organization_id and ts.seat_mode = 'floating'
       join organization o on o.id = m.organization_id
       where m.user_id = ${user}`;

/**
 * Until when the machine `device` (an SQL expression) holds a lease of team `o`'s floating seats,
 * or null: an open lease not expired at `now`.
 */
const leaseUntilSql = (device: string, now: string): string =>
  `(select max(l.expires_at) from seat_leases l
     where l.organization_id = o.id and l.device_id = ${device}
       and l.released_at is null and l.expires_at > ${now})`;

/**
 * Three JSON columns — `subscriptions` (the user's own, newest first), `grants` (live at `now`)
 * and `seats` (named seats held, and the floating seats of the user's teams) — for the user `user`
 * of the statement that embeds them; `user`, `now` and `device` are SQL expressions (a column, a
 * placeholder or a literal). With `device`, the statement reads for that machine: a floating seat
 * carries until when the machine holds a lease of it.
 */
export function entitlementSourceColumns(user: string, now: string, device?: string): string {
  // A floating seat has no rank (1): any member may take one while fewer machines hold a lease.
  const seatColumns = (rank: string, floating: boolean) =>
    `json_build_object(
         'planId', ts.plan_id, 'status', ts.status, 'currentEndMs', ${ms("ts.current_end")},
         'chargeAtMs', ${ms("ts.charge_at")}, 'endReason', ts.end_reason,
         'cancelAtCycleEnd', ts.cancel_at_cycle_end, 'paidCount', ts.paid_count,
         'seats', ts.seats,
         'seatRank', ${rank},
         'upfrontPaidUntilMs', ${ms(upfrontPaidUntilSql("ts"))},
         'floating', ${floating},
         'leaseUntilMs', ${floating && device ? ms(leaseUntilSql(device, now)) : "null"},
         'teamId', o.id, 'teamName', o.name)`;
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
     (select coalesce(json_agg(source.seat), '[]'::json) from (
         select ${seatColumns(seatRankSql("seat"), false)} as seat from ${heldSeatsSql(user)}
         union all
         select ${seatColumns("1", true)} from ${floatingSeatsSql(user)}
       ) source) as seats`;
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
    floating: boolean;
    leaseUntilMs: number | null;
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
  /** The team's seats float (issue 57): a machine takes one while it runs. */
  floating: boolean;
  /** Read for one machine: until when it holds a lease of this floating seat (null: none). */
  leaseUntil: Date | null;
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
  /**
   * Read for one machine (`/api/desktop/me`, a check-in): a floating seat gives Pro only while the
   * machine holds a lease. Read for the person (their pages), it gives Pro as a named seat does.
   */
  forMachine: boolean;
}

const dateOf = (value: number | null) => (value === null ? null : new Date(value));

export function sourcesOfRow(
  row: Partial<EntitlementSourcesRow> | undefined,
  options: { forMachine?: boolean } = {},
): ReadSources {
  return {
    forMachine: options.forMachine ?? false,
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
      floating: seat.floating,
      leaseUntil: dateOf(seat.leaseUntilMs),
      team: { id: seat.teamId, name: seat.teamName },
    })),
  };
}
