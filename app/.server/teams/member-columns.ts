/**
 * Columns of a team's member rows that the team's page and the operator's page both read: how
 * many desktop devices the person has signed in (a count, never the devices: issue 37, point 7)
 * and whether they hold a seat (with `team_seats` left-joined).
 */
import { and, eq, sql } from "drizzle-orm";
import { member as members, teamSeats } from "../db/schema";

/**
 * Written out with the member table's name: drizzle leaves columns unqualified in a subquery's
 * outer query.
 */
export const memberDeviceCount = () =>
  sql<number>`(select count(*)::int from desktop_devices d
    where d.user_id = "member"."user_id" and d.revoked_at is null)`;

/**
 * When the member's most recently used machine last checked in, and how many of their signed-in
 * machines fell silent (their slots freed, issue 57): when and how many, never which.
 */
export const memberLastSeen = () =>
  sql<Date | string | null>`(select max(d.last_seen_at) from desktop_devices d
    where d.user_id = "member"."user_id" and d.revoked_at is null)`;
export const memberSilentDevices = (silentBefore: Date) =>
  sql<number>`(select count(*)::int from desktop_devices d
    where d.user_id = "member"."user_id" and d.revoked_at is null
      and d.last_seen_at < ${silentBefore.toISOString()}::timestamptz)`;

export const holdsSeat = () => sql<boolean>`${teamSeats.userId} is not null`;

/**
 * The join of a seat and its holder's membership: a seat counts only while its holder is a member
 * of the team (removal frees it in the same breath). The SQL readers of the entitlement say the
 * same in billing/entitlement-sources.ts.
 */
export const seatOfMember = () =>
  and(eq(teamSeats.organizationId, members.organizationId), eq(teamSeats.userId, members.userId));
