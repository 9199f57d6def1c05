/**
 * A team's Pro seats (issue 37, point 2): how many it bought (its subscription's quantity), who
 * holds them, how many invitations wait for one, and giving and taking them back. Every change
 * of who holds a seat, and every invitation that would take one, runs under the team's seat lease
 * (on every instance), so two accepts or invitations at once never hand out more seats than were
 * bought.
 */
import { INVITATION_WAITING } from "./invitation-status";
import { checkoutOpen } from "~/lib/subscription-state";
import { stateOfRow } from "../billing/subscription-state.server";
import { and, asc, desc, eq, getTableColumns, gt, inArray, sql } from "drizzle-orm";
import { type Database, db as defaultDb, type Executor } from "../db";
import {
  invitation as invitations,
  member as members,
  type SubscriptionRow,
  subscriptions,
  teamSeats,
} from "../db/schema";
import { paidSeatsAt, subscriptionEntitledUntil } from "../billing/entitlement.server";
import { upfrontPaidUntilSql } from "../billing/entitlement-sources";
import { AppError } from "../http/errors";
import { seatOfMember } from "./member-columns";
import { LeaseBusyError, withLease } from "../security/lease.server";
import { seatsText } from "~/lib/seats";
import type { SeatMode } from "~/lib/floating-seats";

export interface TeamSeats {
  /** The subscription whose seats the team has now; null when it has none. */
  subscription: SubscriptionRow | null;
  /**
   * A change of seats authorised for the end of the current cycle (point 3): the subscription
   * that starts then. Seats added are the team's at once (their share of this cycle was paid up
   * front); seats removed stay until the cycle ends.
   */
  next: SubscriptionRow | null;
  /**
   * With no seats now: the team's subscription that Razorpay halted after its renewal failed
   * (the team pays the missed charge on Razorpay's page to restart it, or buys again).
   */
  halted: SubscriptionRow | null;
  bought: number;
  /** Members holding a seat (user ids). */
  holders: string[];
  /** Invitations waiting for an answer: each will take a seat when accepted. */
  invited: number;
  /**
   * Seats that may be held: those bought, or fewer when a reduction is scheduled (a seat given
   * now would be lost at the cycle's end).
   */
  capacity: number;
  free: number;
  /**
   * How the seats are held (issue 57): named (by people, as above) or floating (by machines while
   * they run; `holders`, `capacity` and `free` then say nothing: any member may take one).
   */
  mode: SeatMode;
}

/**
 * Which of a team's subscriptions give its seats at `now` (the entitlement's own rule), the one
 * with the most seats first: a change of seats overlaps its predecessor until the cycle ends.
 */
export function givingSeats<
  Row extends Parameters<typeof subscriptionEntitledUntil>[0] & { seats: number },
>(rows: readonly Row[], now: Date): Row[] {
  return rows
    .filter((row) => subscriptionEntitledUntil(row, now) !== null)
    .sort((a, b) => b.seats - a.seats);
}

/**
 * The column of a `subscriptions` select: until when its upfront amount (seats added mid-cycle)
 * was paid for, by the entitlement's own SQL, so the team's pages and a member's Pro read one rule.
 */
export const upfrontPaidUntilColumn = () =>
  sql<Date | string | null>`${sql.raw(upfrontPaidUntilSql('"subscriptions"'))}`.mapWith(
    (value: Date | string | null) => (value === null ? null : new Date(value)),
  );

/** The team's seats at `now`: those of its subscription that gives Pro now, if any. */
export async function teamSeatsOf(
  organizationId: string,
  executor: Executor = defaultDb(),
  now = new Date(),
): Promise<TeamSeats> {
  const rows = await executor
    .select({ ...getTableColumns(subscriptions), upfrontPaidUntil: upfrontPaidUntilColumn() })
    .from(subscriptions)
    .where(eq(subscriptions.teamId, organizationId))
    .orderBy(desc(subscriptions.createdAt));
  const giving = givingSeats(rows, now);
  const subscription = giving[0] ?? null;
  const next =
    giving.find(
      (row) =>
        stateOfRow(row) === "switch-scheduled" && row.chargeAt !== null && row.chargeAt > now,
    ) ?? null;
  const held = await executor
    .select({ userId: teamSeats.userId, assignedAt: teamSeats.assignedAt })
    .from(teamSeats)
    // A seat counts only while its holder is a member (removal frees it in the same breath).
    .innerJoin(members, seatOfMember())
    .where(eq(teamSeats.organizationId, organizationId))
    // Oldest given first: the order in which seats give Pro when fewer are paid (entitlement).
    .orderBy(asc(teamSeats.assignedAt), asc(teamSeats.userId));
  const [waiting] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(invitations)
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.status, INVITATION_WAITING),
        gt(invitations.expiresAt, now),
      ),
    );
  const bought = paidSeatsAt(rows, now);
  // A reduction waiting to be paid (its checkout is open) counts as scheduled already: a seat
  // given meanwhile would be lost at the cycle's end (issue 53, finding 1b).
  const ordered = rows.find(
    (row) =>
      checkoutOpen(row.status) &&
      row.replacesSubscriptionId !== null &&
      row.replacesSubscriptionId === subscription?.id,
  );
  const capacity = Math.min(bought, next?.seats ?? bought, ordered?.seats ?? bought);
  const holders = held.map((row) => row.userId);
  const invited = Number(waiting?.count ?? 0);
  return {
    subscription,
    next,
    halted: subscription ? null : (rows.find((row) => stateOfRow(row) === "halted") ?? null),
    bought,
    holders,
    invited,
    capacity,
    free: Math.max(0, capacity - holders.length - invited),
    mode: subscription?.seatMode ?? "named",
  };
}

/** Runs `work` holding the team's seat lease: one seat change at a time, on every instance. */
export async function withSeatLease<T>(
  organizationId: string,
  work: () => Promise<T>,
  database: Database = defaultDb(),
  waitMs = 15_000,
): Promise<T> {
  try {
    return await withLease(`team-seats:${organizationId}`, work, {
      ttlSeconds: 30,
      waitMs,
      database,
    });
  } catch (error) {
    if (error instanceof LeaseBusyError)
      throw new AppError(
        "conflict",
        "Someone else is changing the team's seats right now. Try again in a moment.",
      );
    throw error;
  }
}

/**
 * Refuses an invitation for which no seat is free, saying how many are, when the team has bought
 * seats (a team without any invites people to the team only). Sending an address's waiting
 * invitation again takes no new seat. Call under the seat lease.
 */
export async function assertSeatForInvitation(
  organizationId: string,
  email: string,
  executor: Executor = defaultDb(),
): Promise<void> {
  const seats = await teamSeatsOf(organizationId, executor);
  // Floating seats are taken by machines, not people: the team may have more members than seats.
  if (seats.bought === 0 || seats.mode === "floating" || seats.free > 0) return;
  const [again] = await executor
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.email, email),
        eq(invitations.status, INVITATION_WAITING),
        gt(invitations.expiresAt, new Date()),
      ),
    );
  if (again) return;
  throw new AppError(
    "conflict",
    `No seat is free: the team's ${seatsText(seats.capacity)} ${seats.capacity === 1 ? "is" : "are"} held by ${seats.holders.length} ${seats.holders.length === 1 ? "person" : "people"} and ${seats.invited} waiting ${seats.invited === 1 ? "invitation" : "invitations"}. Add seats, take a seat back, or withdraw an invitation first.`,
    { field: "email" },
  );
}

/**
 * Gives a member a seat when one is free: "given" (or held already), "full" (they stay in the
 * team without Pro), "none" (the team has bought no seats) or "floating" (the seats float: the
 * member takes one on a machine while the app runs, nothing is given to them). Call under the
 * seat lease.
 */
export async function giveSeat(
  organizationId: string,
  userId: string,
  executor: Executor = defaultDb(),
  options: { ignoreInvitations?: boolean } = {},
): Promise<"given" | "full" | "none" | "floating"> {
  const seats = await teamSeatsOf(organizationId, executor);
  if (seats.bought === 0) return "none";
  if (seats.mode === "floating") return "floating";
  if (seats.holders.includes(userId)) return "given";
  // An accepted invitation was counted as waiting until a moment ago: its seat is this one.
  const free = options.ignoreInvitations ? seats.capacity - seats.holders.length : seats.free;
  if (free <= 0) return "full";
  await executor.insert(teamSeats).values({ organizationId, userId }).onConflictDoNothing();
  return "given";
}

/** Frees a person's seat in a team (taken back, they left, or were removed). */
export async function releaseSeat(
  organizationId: string,
  userIds: string | readonly string[],
  executor: Executor = defaultDb(),
): Promise<void> {
  const ids = typeof userIds === "string" ? [userIds] : [...userIds];
  if (ids.length === 0) return;
  await executor
    .delete(teamSeats)
    .where(and(eq(teamSeats.organizationId, organizationId), inArray(teamSeats.userId, ids)));
}
