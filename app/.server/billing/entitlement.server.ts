import { sql } from "drizzle-orm";
import { findPlan, freePlan, type Plan } from "~/lib/plans";
import { STATUS_RULES, type SubscriptionStatus } from "~/lib/subscription-state";
import { db as defaultDb, type Executor } from "../db";
import { GRANTS_NOTHING_END_REASONS } from "../db/schema";
import { literal } from "../db/prepared";
import {
  entitlementSourceColumns,
  type EntitlementSourcesRow,
  sourcesOfRow,
} from "./entitlement-sources";

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
  team?: { id: string; name: string; floating?: true };
  /**
   * A floating seat of `team` (issue 57, point 2): this machine holds a lease of it until then,
   * renewed by each check-in. The offline licence ends there too, so a machine that stops
   * checking in never keeps Pro past the seat it gave back.
   */
  lease_until?: string;
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
    /** A team's subscription whose seats float: a machine takes one while it runs (issue 57). */
    floating?: boolean;
    /** Read for a machine: until when it holds a lease of this floating seat. */
    leaseUntil?: Date | null;
  }[];
  /**
   * The subscriptions of the teams whose seat the person holds (issue 37): kept apart from their
   * own, which the account's subscription pages manage; each names its team.
   */
  seats?: EntitlementSources["subscriptions"];
  grants: readonly { planId: string; startsAt: Date; endsAt: Date }[];
  /**
   * Decided for one machine: a floating seat gives Pro only while the machine holds a lease.
   * For the person (their pages, a sign-in's device limit), it gives Pro as a named seat does.
   */
  forMachine?: boolean;
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

export function entitlementOf(
  plan: Plan,
  until: Date | "open" | null,
  renews: boolean,
  team: Entitlement["team"] | null = null,
  unpaid = false,
  leaseUntil: Date | null = null,
): Entitlement {
  return {
    ...(leaseUntil ? { lease_until: leaseUntil.toISOString() } : {}),
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
    team?: Entitlement["team"] | null;
    unpaid?: boolean;
    leaseUntil?: Date | null;
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
    // A floating seat, decided for a machine: Pro only while the machine holds a lease of it.
    const leaseUntil =
      sources.forMachine && subscription.floating ? (subscription.leaseUntil ?? null) : null;
    if (sources.forMachine && subscription.floating && (!leaseUntil || leaseUntil <= now)) continue;
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
        team: subscription.team
          ? { ...subscription.team, ...(subscription.floating ? { floating: true as const } : {}) }
          : null,
        leaseUntil,
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
  // Most devices, then the latest end; at the same end, the one that renews, then one already
  // paid over one only authorised (a scheduled switch names the plan paid for until it starts),
  // then the person's own over a team's seat. Decided by the sort alone, never by the order the
  // sources were read in.
  candidates.sort(
    (a, b) =>
      b.plan.deviceLimit - a.plan.deviceLimit ||
      rank(b.until) - rank(a.until) ||
      Number(b.renews) - Number(a.renews) ||
      Number(Boolean(a.unpaid)) - Number(Boolean(b.unpaid)) ||
      Number(Boolean(a.team)) - Number(Boolean(b.team)) ||
      // Equal on everything a person sees the difference of: any fixed order will do.
      a.plan.id.localeCompare(b.plan.id) ||
      (a.team?.id ?? "").localeCompare(b.team?.id ?? ""),
  );
  const best = candidates[0];
  return best
    ? entitlementOf(best.plan, best.until, best.renews, best.team, best.unpaid, best.leaseUntil)
    : entitlementOf(freePlan(), null, false);
}

/**
 * What a user may use now. Every reader (desktop licence, device limit, account, admin) asks this
 * one function, so a subscription change shows everywhere on the next request.
 */
export async function entitlementFor(
  userId: string,
  options: {
    database?: Executor;
    now?: Date;
    /** false: leave out the floating seats of the person's teams (a licence file holds none). */
    floatingSeats?: boolean;
  } = {},
): Promise<Entitlement> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  // One round trip for every source, with the SQL the account area and /api/desktop/me embed
  // (entitlement-sources.ts). Values as literals: the executor may be a transaction, which has no
  // named statements; `literal` quotes as node-postgres does.
  const result = await database.execute(
    sql.raw(
      `select ${entitlementSourceColumns("u.id", `${literal(now)}::timestamptz`)}
       from "user" u where u.id = ${literal(userId)}`,
    ),
  );
  const [row] = (result as unknown as { rows: EntitlementSourcesRow[] }).rows;
  const sources = sourcesOfRow(row);
  return decideEntitlement(
    options.floatingSeats === false
      ? { ...sources, seats: sources.seats.filter((seat) => !seat.floating) }
      : sources,
    now,
  );
}
