/**
 * Teams for the operator (issue 37, point 6): every team with its GSTIN and state, its owners,
 * how many people it has, how many invitations wait, its seats (held of bought) and what it was
 * invoiced; searched by name or GSTIN. And the seats in the cockpit: sold, held, MRR from teams.
 */
import { recurs } from "../billing/subscription-state.server";
import { statusesWhere } from "~/lib/subscription-state";
import { and, asc, desc, eq, ilike, inArray, isNotNull, or, sql } from "drizzle-orm";
import { findPlan } from "~/lib/plans";
import { teamMonthlyPaise } from "~/lib/seats";
import { holdsSeat, memberDeviceCount, seatOfMember } from "./member-columns";
import { paidSeatsAt } from "../billing/entitlement.server";
import { upfrontPaidUntilColumn } from "./seats.server";
import { db as defaultDb, type Executor } from "../db";
import {
  invoiceColumns,
  invoices,
  type InvoiceRow,
  member as members,
  organization as organizations,
  payments,
  providerPlans,
  subscriptions,
  type SubscriptionRow,
  teamProfiles,
  teamSeats,
  user as users,
} from "../db/schema";

export interface TeamListing {
  id: string;
  name: string;
  gstin: string | null;
  stateCode: string | null;
  owners: string[];
  members: number;
  pendingInvitations: number;
  /** Seats its subscription gives now (0 without one), and how many members hold one. */
  seatsBought: number;
  seatsHeld: number;
  /** Its tax invoices, less its credit notes, in paise. */
  invoicedPaise: number;
  createdAt: Date;
}

/** At most 200 teams, by name; `query` matches the name or the GSTIN, any case. */
export async function listTeams(
  query: string,
  database: Executor = defaultDb(),
  now = new Date(),
): Promise<TeamListing[]> {
  const q = query.trim().slice(0, 100);
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await database
    .select({
      id: organizations.id,
      name: organizations.name,
      createdAt: organizations.createdAt,
      gstin: teamProfiles.gstin,
      stateCode: teamProfiles.stateCode,
      owners: sql<string[]>`coalesce((
        select array_agg(u.email order by m.created_at) from member m join "user" u on u.id = m.user_id
         where m.organization_id = "organization"."id" and m.role = 'owner'), '{}')`,
      members: sql<number>`(select count(*)::int from member m where m.organization_id = "organization"."id")`,
      pendingInvitations: sql<number>`(select count(*)::int from invitation i
        where i.organization_id = "organization"."id" and i.status = 'pending'
          and i.expires_at > ${now.toISOString()})`,
      seatsHeld: sql<number>`(select count(*)::int from team_seats ts
        join member m on m.organization_id = ts.organization_id and m.user_id = ts.user_id
        where ts.organization_id = "organization"."id")`,
      invoicedPaise: sql<number>`(select coalesce(sum(case when i.kind = 'invoice'
          then i.total_paise else -i.total_paise end), 0)::int
        from invoices i where i.team_id = "organization"."id")`,
    })
    .from(organizations)
    .leftJoin(teamProfiles, eq(teamProfiles.organizationId, organizations.id))
    .where(
      q ? or(ilike(organizations.name, pattern), ilike(teamProfiles.gstin, pattern)) : undefined,
    )
    .orderBy(asc(organizations.name))
    .limit(200);
  const bought = await seatsBoughtByTeam(
    database,
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => ({
    ...row,
    owners: row.owners ?? [],
    members: Number(row.members),
    pendingInvitations: Number(row.pendingInvitations),
    seatsBought: bought.get(row.id) ?? 0,
    seatsHeld: Number(row.seatsHeld),
    invoicedPaise: Number(row.invoicedPaise),
  }));
}

/**
 * The seats each team's subscriptions give at `now` (all teams when `teamIds` is null), decided
 * by the same rule as a member's Pro (`paidSeatsAt`), in one read.
 */
async function seatsBoughtByTeam(
  database: Executor,
  teamIds: readonly string[] | null,
  now: Date,
): Promise<Map<string, number>> {
  if (teamIds?.length === 0) return new Map();
  const rows = await database
    .select({
      teamId: subscriptions.teamId,
      planId: subscriptions.planId,
      seats: subscriptions.seats,
      status: subscriptions.status,
      currentEnd: subscriptions.currentEnd,
      chargeAt: subscriptions.chargeAt,
      endReason: subscriptions.endReason,
      cancelAtCycleEnd: subscriptions.cancelAtCycleEnd,
      upfrontPaidUntil: upfrontPaidUntilColumn(),
    })
    .from(subscriptions)
    .where(teamIds ? inArray(subscriptions.teamId, [...teamIds]) : isNotNull(subscriptions.teamId));
  const byTeam = new Map<string, typeof rows>();
  for (const row of rows)
    if (row.teamId) byTeam.set(row.teamId, [...(byTeam.get(row.teamId) ?? []), row]);
  return new Map([...byTeam].map(([teamId, subs]) => [teamId, paidSeatsAt(subs, now)]));
}

export interface TeamSeatTotals {
  teams: number;
  seatsSold: number;
  seatsHeld: number;
  /** Teams' recurring revenue a month: paying subscriptions not ending, seats × seat price. */
  mrrPaise: number;
}

/** The cockpit's seats: over every team with seats now. */
export async function teamSeatTotals(
  database: Executor = defaultDb(),
  now = new Date(),
): Promise<TeamSeatTotals> {
  const bought = [...(await seatsBoughtByTeam(database, null, now))].filter(
    ([, seats]) => seats > 0,
  );
  const held =
    bought.length === 0
      ? []
      : await database
          .select({ count: sql<number>`count(*)::int` })
          .from(teamSeats)
          .innerJoin(members, seatOfMember())
          .where(
            inArray(
              teamSeats.organizationId,
              bought.map(([teamId]) => teamId),
            ),
          );
  const rows = await database
    .select({
      status: subscriptions.status,
      cancelAtCycleEnd: subscriptions.cancelAtCycleEnd,
      cancelReason: subscriptions.cancelReason,
      planId: subscriptions.planId,
      seats: subscriptions.seats,
      unitPaise: providerPlans.amount,
    })
    .from(subscriptions)
    .innerJoin(providerPlans, eq(providerPlans.providerPlanId, subscriptions.providerPlanId))
    .where(
      and(
        isNotNull(subscriptions.teamId),
        inArray(
          subscriptions.status,
          statusesWhere((rules) => rules.paying),
        ),
      ),
    );
  const paying = rows.filter(recurs);
  return {
    teams: bought.length,
    seatsSold: bought.reduce((sum, [, seats]) => sum + seats, 0),
    seatsHeld: Number(held[0]?.count ?? 0),
    mrrPaise: paying.reduce(
      (sum, row) =>
        sum +
        teamMonthlyPaise(findPlan(row.planId)?.billingCycle ?? "monthly", row.unitPaise, row.seats),
      0,
    ),
  };
}

export interface TeamForOperator {
  id: string;
  name: string;
  createdAt: Date;
  profile: typeof teamProfiles.$inferSelect | null;
  members: {
    userId: string;
    email: string;
    role: string;
    joinedAt: Date;
    seat: boolean;
    devices: number;
  }[];
  subscriptions: SubscriptionRow[];
  payments: (typeof payments.$inferSelect)[];
  invoices: InvoiceRow[];
}

/**
 * One team as the operator sees it (issue 37, point 6): its billing identity, its people with
 * their seats and device counts, and every subscription, payment (failed ones too) and document
 * of its seats. Null for a team that does not exist.
 */
export async function teamForOperator(
  organizationId: string,
  database: Executor = defaultDb(),
): Promise<TeamForOperator | null> {
  const [team] = await database
    .select({ id: organizations.id, name: organizations.name, createdAt: organizations.createdAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!team) return null;
  const [profile] = await database
    .select()
    .from(teamProfiles)
    .where(eq(teamProfiles.organizationId, organizationId));
  const people = await database
    .select({
      userId: members.userId,
      email: users.email,
      role: members.role,
      joinedAt: members.createdAt,
      seat: holdsSeat(),
      devices: memberDeviceCount(),
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .leftJoin(teamSeats, seatOfMember())
    .where(eq(members.organizationId, organizationId))
    .orderBy(asc(members.createdAt));
  const rows = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.teamId, organizationId))
    .orderBy(desc(subscriptions.createdAt));
  const paid =
    rows.length === 0
      ? []
      : await database
          .select()
          .from(payments)
          .where(
            inArray(
              payments.subscriptionId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(desc(payments.paidAt));
  const documents = await database
    .select(invoiceColumns)
    .from(invoices)
    .where(eq(invoices.teamId, organizationId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.number));
  return {
    ...team,
    profile: profile ?? null,
    members: people.map((person) => ({
      ...person,
      seat: Boolean(person.seat),
      devices: Number(person.devices),
    })),
    subscriptions: rows,
    payments: paid,
    invoices: documents,
  };
}
