import { and, eq, gt, sql } from "drizzle-orm";
import { findPlan, freePlan, type Plan } from "~/lib/plans";
import { STATUS_RULES, type SubscriptionStatus } from "~/lib/subscription-state";
import { db as defaultDb, type Executor } from "../db";
import {
  entitlementGrants,
  GRANTS_NOTHING_END_REASONS,
  member as members,
  organization as organizations,
  subscriptions,
  teamSeats,
} from "../db/schema";

export interface Entitlement {
  plan: string;
  status: "active";
  features: string[];
  device_limit: number;
  /** null: does not expire (the free plan). */
  expires_at: string | null;
  /**
   * Whether the plan goes on past `expires_at` by itself (a subscription that will renew), or ends
   * there (a trial, a grant, a cancelled or paused subscription): then the offline licence ends
   * there too, and the app can say "ends on" rather than "renews on".
   */
  renews: boolean;
  /**
   * Set when the plan goes on only through a first charge not made yet (a plan authorised to
   * start when a free trial ends, a switch waiting for its first charge): what is paid or granted
   * ends here, and so does the offline licence, until that charge is made (issue 53, finding 12).
   */
  paid_until?: string;
  /**
   * The team whose seat gives the plan (issue 37, point 2); absent when the plan is the
   * person's own. In the licence too, so the app can say whose Pro it is.
   */
  team?: { id: string; name: string };
}

export interface EntitlementSources {
  subscriptions: readonly {
    planId: string;
    status: SubscriptionStatus;
    currentEnd: Date | null;
    chargeAt: Date | null;
    endReason: string | null;
    /**
     * Set to end with its period (a cancellation, or a switch that replaces it): once that end
     * has passed it gives nothing, even before Razorpay's word of the end arrives.
     */
    cancelAtCycleEnd?: boolean;
    /** Charges made: an authorised subscription with none has paid for nothing yet. */
    paidCount?: number;
    /** A team's subscription, whose seat this person holds. */
    team?: { id: string; name: string } | null;
    /**
     * Seats added mid-cycle whose upfront amount was paid: the subscription's seats are paid
     * until then even if it never starts (a change dropped by a cancellation), finding 1.
     */
    upfrontPaidUntil?: Date | null;
    /** A team's subscription: how many seats it pays for (issue 53, finding 1). */
    seats?: number;
    /**
     * A team's subscription: the place of this person's seat among the team's seats, oldest
     * given first (1 is the oldest). Only the first `paid` seats give Pro.
     */
    seatRank?: number;
  }[];
  /**
   * The subscriptions of the teams whose seat the person holds (issue 37): kept apart from their
   * own, which the account's subscription pages manage; each names its team.
   */
  seats?: EntitlementSources["subscriptions"];
  grants: readonly { planId: string; startsAt: Date; endsAt: Date }[];
}

/**
 * Ends after which a subscription grants nothing, whatever its status and period say: its time was
 * never really paid — a duplicate (cancelled and refunded), a period refunded in full, a renewal
 * never paid (halted, then cancelled) — (issue 32), or an operator cancelled it now (issue 33).
 */
const GRANTS_NOTHING: ReadonlySet<string> = new Set(GRANTS_NOTHING_END_REASONS);

/** Until when a subscription gives its plan, or null when it gives nothing now. */
export function subscriptionEntitledUntil(
  subscription: EntitlementSources["subscriptions"][number],
  now: Date,
): Date | "open" | null {
  const until = periodEntitledUntil(subscription, now);
  const upfront = subscription.upfrontPaidUntil;
  if (
    until === null &&
    upfront &&
    upfront > now &&
    !GRANTS_NOTHING.has(subscription.endReason ?? "")
  )
    return upfront;
  return until;
}

function periodEntitledUntil(
  subscription: EntitlementSources["subscriptions"][number],
  now: Date,
): Date | "open" | null {
  if (subscription.endReason && GRANTS_NOTHING.has(subscription.endReason)) return null;
  // Ending with its period, and the period is over: nothing more was paid (the webhook saying
  // so may come later, or never).
  if (
    subscription.cancelAtCycleEnd &&
    subscription.currentEnd !== null &&
    subscription.currentEnd <= now
  )
    return null;
  // What the status grants is the state table's (app/lib/subscription-state.ts): a new status
  // does not compile until it says, so none silently grants nothing.
  const grant = STATUS_RULES[subscription.status].grants;
  switch (grant) {
    // Paid, or authorised and waiting for its first charge (a scheduled switch), or in the
    // grace of Razorpay's retries after a failed charge: Pro until the provider halts it.
    case "to-next-charge":
      return subscription.currentEnd ?? subscription.chargeAt ?? "open";
    // Cancelled or completed (by the customer, a switch, at Razorpay), or paused (issue 34: a
    // pause stops charges, not the time already paid): Pro for the rest of the period that was
    // paid for, then Free until it resumes.
    case "paid-period":
      return subscription.currentEnd && subscription.currentEnd > now
        ? subscription.currentEnd
        : null;
    case "nothing":
      return null;
  }
}

/**
 * How many seats a team pays for at `now`: those of its subscription with the most seats among
 * those that give Pro now (a change of seats overlaps the subscription it replaces until the
 * cycle ends). The one rule of "seats paid": entitlement, the team's page and trimming read it.
 */
export function paidSeatsAt(
  rows: readonly (EntitlementSources["subscriptions"][number] & { seats?: number })[],
  now: Date,
): number {
  let paid = 0;
  for (const row of rows)
    if (subscriptionEntitledUntil(row, now) !== null) paid = Math.max(paid, row.seats ?? 1);
  return paid;
}

function paidSeatsByTeam(
  rows: readonly EntitlementSources["subscriptions"][number][],
  now: Date,
): Map<string, number> {
  const byTeam = new Map<string, EntitlementSources["subscriptions"][number][]>();
  for (const row of rows) {
    if (!row.team) continue;
    byTeam.set(row.team.id, [...(byTeam.get(row.team.id) ?? []), row]);
  }
  return new Map([...byTeam].map(([team, teamRows]) => [team, paidSeatsAt(teamRows, now)]));
}

function entitlementOf(
  plan: Plan,
  until: Date | "open" | null,
  renews: boolean,
  team: { id: string; name: string } | null = null,
  unpaid = false,
): Entitlement {
  return {
    ...(unpaid && until instanceof Date ? { paid_until: until.toISOString() } : {}),
    plan: plan.id,
    status: "active",
    features: [...plan.features],
    device_limit: plan.deviceLimit,
    expires_at: until instanceof Date ? until.toISOString() : null,
    renews,
    ...(team ? { team } : {}),
  };
}

/**
 * What a user may use, decided from their subscriptions and grants at `now`: the best plan any of
 * them gives (most devices, then the latest end), else Free.
 */
export function decideEntitlement(sources: EntitlementSources, now: Date): Entitlement {
  const candidates: {
    plan: Plan;
    until: Date | "open";
    renews: boolean;
    team?: { id: string; name: string } | null;
    unpaid?: boolean;
  }[] = [];
  const paidByTeam = paidSeatsByTeam(
    [...sources.subscriptions, ...(sources.seats ?? [])].filter((row) => row.team),
    now,
  );
  for (const subscription of [...sources.subscriptions, ...(sources.seats ?? [])]) {
    // A team's seat gives Pro only while it is among the seats the team pays for now, the oldest
    // given first (issue 53, finding 1): however the seats came to outnumber the payment.
    if (
      subscription.team &&
      (subscription.seatRank ?? Number.MAX_SAFE_INTEGER) >
        (paidByTeam.get(subscription.team.id) ?? 0)
    )
      continue;
    const until = subscriptionEntitledUntil(subscription, now);
    const plan = findPlan(subscription.planId);
    if (until && plan)
      candidates.push({
        plan,
        until,
        renews: STATUS_RULES[subscription.status].renews,
        // Authorised, never charged: it gives Pro until its first charge, and no further.
        unpaid:
          STATUS_RULES[subscription.status].awaitsFirstCharge &&
          (subscription.paidCount ?? 0) === 0,
        team: subscription.team ?? null,
      });
  }
  for (const grant of sources.grants) {
    const plan = findPlan(grant.planId);
    if (plan && grant.startsAt <= now && grant.endsAt > now)
      candidates.push({ plan, until: grant.endsAt, renews: false });
  }
  // To the second, as Razorpay's timestamps are: a plan set to start when a trial ends (its first
  // charge at the trial's end, truncated to the second) ends with the trial, and goes on.
  const rank = (until: Date | "open") =>
    until === "open" ? Number.MAX_SAFE_INTEGER : Math.floor(until.getTime() / 1000);
  // Most devices, then the latest end; at the same end, the one that renews, then the person's
  // own over a team's seat.
  candidates.sort(
    (a, b) =>
      b.plan.deviceLimit - a.plan.deviceLimit ||
      rank(b.until) - rank(a.until) ||
      Number(b.renews) - Number(a.renews) ||
      Number(Boolean(a.team)) - Number(Boolean(b.team)),
  );
  const best = candidates[0];
  return best
    ? entitlementOf(best.plan, best.until, best.renews, best.team, best.unpaid)
    : entitlementOf(freePlan(), null, false);
}

/**
 * The place of the seat row `seat` (a table name or alias of `team_seats`) among its team's seats
 * held by members, oldest given first (1-based): SQL for both readers of the entitlement, this
 * module's `entitlementFor` and `/api/desktop/me`'s one statement.
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

/** A subscription as a row of `entitlementFor`'s union: its own, or a team's (naming it). */
function subscriptionSource(team: typeof organizations | null) {
  return {
    grant: sql<boolean>`false`,
    planId: subscriptions.planId,
    status: sql<SubscriptionStatus | "">`${subscriptions.status}`,
    first: subscriptions.currentEnd,
    second: subscriptions.chargeAt,
    endReason: sql<string | null>`${subscriptions.endReason}`,
    cancelAtCycleEnd: sql<boolean>`${subscriptions.cancelAtCycleEnd}`,
    paidCount: sql<number>`${subscriptions.paidCount}`,
    seats: sql<number>`${subscriptions.seats}`,
    seatRank: team
      ? sql<number | null>`${sql.raw(seatRankSql('"team_seats"'))}`
      : sql<number | null>`null::int`,
    upfrontPaidUntil: team
      ? sql<Date | string | null>`${sql.raw(upfrontPaidUntilSql('"subscriptions"'))}`
      : sql<Date | string | null>`null::timestamptz`,
    teamId: team ? sql<string | null>`${team.id}` : sql<string | null>`null`,
    teamName: team ? sql<string | null>`${team.name}` : sql<string | null>`null`,
  };
}

/**
 * What a user may use now. Every reader (desktop licence, device limit, account, admin) asks this
 * one function, so a subscription change shows everywhere on the next request.
 */
export async function entitlementFor(
  userId: string,
  options: { database?: Executor; now?: Date } = {},
): Promise<Entitlement> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  // One round trip for both sources: the embedded database runs queries one at a time on the
  // server's own thread (about a millisecond each), and this check runs on every account page
  // and desktop API call. Grants carry no status; their start and end use the same two columns.
  // A team's subscription counts for the members holding one of its seats (issue 37).
  const rows = await database
    .select(subscriptionSource(null))
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .unionAll(
      database
        .select(subscriptionSource(organizations))
        .from(teamSeats)
        .innerJoin(
          members,
          and(
            eq(members.organizationId, teamSeats.organizationId),
            eq(members.userId, teamSeats.userId),
          ),
        )
        .innerJoin(subscriptions, eq(subscriptions.teamId, teamSeats.organizationId))
        .innerJoin(organizations, eq(organizations.id, teamSeats.organizationId))
        .where(eq(teamSeats.userId, userId)),
    )
    .unionAll(
      database
        .select({
          grant: sql<boolean>`true`,
          planId: entitlementGrants.planId,
          status: sql<SubscriptionStatus | "">`''`,
          first: entitlementGrants.startsAt,
          second: entitlementGrants.endsAt,
          endReason: sql<string | null>`null`,
          cancelAtCycleEnd: sql<boolean>`false`,
          paidCount: sql<number>`0`,
          seats: sql<number>`1`,
          seatRank: sql<number | null>`null::int`,
          upfrontPaidUntil: sql<Date | string | null>`null::timestamptz`,
          teamId: sql<string | null>`null`,
          teamName: sql<string | null>`null`,
        })
        .from(entitlementGrants)
        .where(and(eq(entitlementGrants.userId, userId), gt(entitlementGrants.endsAt, now))),
    );
  const subs = rows
    // A grant's row carries no status (''); every other row is a subscription's.
    .flatMap((row) => (row.grant || row.status === "" ? [] : [{ ...row, status: row.status }]))
    .map(
      ({
        planId,
        status,
        first,
        second,
        endReason,
        cancelAtCycleEnd,
        paidCount,
        seats,
        seatRank,
        upfrontPaidUntil,
        teamId,
        teamName,
      }) => ({
        paidCount: Number(paidCount),
        planId,
        status,
        currentEnd: first,
        chargeAt: second,
        endReason,
        cancelAtCycleEnd: Boolean(cancelAtCycleEnd),
        seats: Number(seats),
        ...(seatRank === null ? {} : { seatRank: Number(seatRank) }),
        // A raw SQL column: drizzle hands back the driver's value (a string on some drivers).
        upfrontPaidUntil: upfrontPaidUntil === null ? null : new Date(upfrontPaidUntil),
        team: teamId ? { id: teamId, name: teamName ?? "" } : null,
      }),
    );
  const grants = rows.flatMap(({ grant, planId, first, second }) =>
    grant && first && second ? [{ planId, startsAt: first, endsAt: second }] : [],
  );
  return decideEntitlement({ subscriptions: subs, grants }, now);
}
