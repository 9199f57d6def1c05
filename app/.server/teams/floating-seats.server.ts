/**
 * Floating team seats (issue 57, point 2; decision 0064): a team whose subscription's seats
 * float lets any member run Pro on a machine while fewer machines than its seats (plus the
 * overage allowance the owner chose) hold a lease. A check-in takes or renews the machine's
 * lease; signing out, silence past the lease, leaving the team, Pro of one's own or the team's
 * move to named seats end it. Taking a lease locks the team's row for the transaction, so two
 * instances on one PostgreSQL never open more leases than allowed (tests/integration/
 * floating-seats.test.ts).
 */
import { and, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import {
  TEAM_LICENCE_FILE_REFUSALS,
  floatingRefusalText,
  peakOverlap,
  type LeaseEndReason,
  machinesAllowed,
  type OveragePercent,
  type SeatMode,
} from "~/lib/floating-seats";
import { STATUS_RULES } from "~/lib/subscription-state";
import { type Database, db as defaultDb, type Executor } from "../db";
import { literal } from "../db/prepared";
import {
  desktopDevices,
  offlineLicences,
  seatLeaseRefusals,
  seatLeases,
  subscriptions,
} from "../db/schema";
import { user as users } from "../db/auth-schema";
import {
  decideEntitlement,
  entitlementOf,
  paidSeatsAt,
  subscriptionEntitledUntil,
} from "../billing/entitlement.server";
import {
  entitlementSourceColumns,
  type EntitlementSourcesRow,
  sourcesOfRow,
} from "../billing/entitlement-sources";
import { env } from "../env";
import { givingSeats } from "./seats.server";
import { AppError } from "../http/errors";
import { randomUUID } from "node:crypto";
import { findPlan } from "~/lib/plans";
import { licenceFileSigner } from "../desktop/license.server";
import { fingerprintHash, licenceFileDownload } from "../desktop/licence-files.server";
import { formatDate } from "~/lib/dates";
import { queueSeatTrim } from "./trim-queue";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** What a check-in learnt about the machine's floating seat. */
export type FloatingSeatOutcome =
  /** No floating seat is what gives this machine Pro: none is needed, or none exists. */
  | { kind: "none" }
  | { kind: "held"; team: { id: string; name: string }; until: Date; overage: boolean }
  | {
      kind: "refused";
      team: { id: string; name: string };
      seats: number;
      allowed: number;
      message: string;
    };

/** The team's floating seats now: how many the subscription pays for, and the allowance. */
interface FloatingTerms {
  seats: number;
  overagePercent: OveragePercent;
  allowed: number;
  /** The plan the seats give, and until when what is paid gives it ("open": no end known). */
  planId: string;
  paidUntil: Date | "open";
}

/** The floating terms of the team's subscriptions that give seats at `now`; null when none float. */
async function floatingTermsOf(
  executor: Executor,
  organizationId: string,
  now: Date,
): Promise<FloatingTerms | null> {
  const rows = await executor
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.teamId, organizationId), eq(subscriptions.seatMode, "floating")));
  const giving = givingSeats(rows, now);
  const first = giving[0];
  if (!first) return null;
  const seats = paidSeatsAt(giving, now);
  const ends = giving.map((row) => subscriptionEntitledUntil(row, now));
  const dated = ends.filter((end): end is Date => end instanceof Date);
  return {
    seats,
    overagePercent: first.overagePercent,
    allowed: machinesAllowed(seats, first.overagePercent),
    planId: first.planId,
    paidUntil:
      ends.includes("open") || dated.length === 0
        ? "open"
        : new Date(Math.max(...dated.map((end) => end.getTime()))),
  };
}

/** A lease held by a team's licence file: nothing but its expiry ends it (the file is offline). */
const byFile = sql`${seatLeases.offlineLicenceId} is not null`;
const machineGone = sql`not exists (select 1 from desktop_devices d where d.id = ${seatLeases.deviceId} and d.revoked_at is null)`;
const holderLeft = sql`not exists (select 1 from member m where m.organization_id = ${seatLeases.organizationId} and m.user_id = ${seatLeases.userId})`;

/**
 * The one rule of a lease that holds a seat at `now`: not released, not expired, and either a
 * team's licence file or a machine still signed in whose holder is still a member. Every count of
 * leases in use reads this.
 */
const liveLease = (organizationId: string, now: Date) =>
  and(
    eq(seatLeases.organizationId, organizationId),
    isNull(seatLeases.releasedAt),
    sql`${seatLeases.expiresAt} > ${now.toISOString()}::timestamptz`,
    sql`(${byFile} or (not ${machineGone} and not ${holderLeft}))`,
  );

/** Ends the open leases `where` selects, saying why (the history the team page shows). */
async function endLeases(
  executor: Executor,
  where: ReturnType<typeof and>,
  reason: LeaseEndReason,
  at: Date | "expiry",
): Promise<void> {
  await executor
    .update(seatLeases)
    .set({
      releasedAt:
        at === "expiry" ? sql`${seatLeases.expiresAt}` : sql`${at.toISOString()}::timestamptz`,
      releaseReason: reason,
    })
    .where(and(isNull(seatLeases.releasedAt), where));
}

/** Records, for the team's history, the ends of leases that stopped holding a seat by themselves. */
async function endStaleLeases(executor: Executor, organizationId: string, now: Date) {
  const team = eq(seatLeases.organizationId, organizationId);
  await endLeases(
    executor,
    and(team, sql`${seatLeases.expiresAt} <= ${now.toISOString()}::timestamptz`),
    "expired",
    "expiry",
  );
  // A licence file's lease runs to its expiry whatever happens to the person who made it.
  const machine = sql`${seatLeases.offlineLicenceId} is null`;
  await endLeases(executor, and(team, machine, machineGone), "signed-out", now);
  await endLeases(executor, and(team, machine, holderLeft), "left-team", now);
}

/** Ends the machines' open leases in every team (signed out, or Pro of their own). */
export async function releaseMachineLeases(
  deviceIds: readonly string[],
  reason: LeaseEndReason,
  executor: Executor = defaultDb(),
  now: Date = new Date(),
): Promise<void> {
  if (deviceIds.length === 0) return;
  await endLeases(executor, inArray(seatLeases.deviceId, [...deviceIds]), reason, now);
}

/**
 * Takes, renews or is refused a lease of one team's floating seats for a machine, under a lock
 * on the team's row: the count of leases in use and the insert are one decision on every
 * instance.
 */
async function leaseFromTeam(
  database: Database,
  team: { id: string; name: string },
  machine: { deviceId: string; userId: string },
  now: Date,
): Promise<FloatingSeatOutcome> {
  return database.transaction(async (tx) => {
    // NO KEY UPDATE, not UPDATE: it serialises the leases of one team on every instance, and
    // does not block the key-share locks that a row referencing the team takes (a subscription's
    // sync writing an invoice for the team would otherwise deadlock with a change of mode).
    await tx.execute(sql`select id from organization where id = ${team.id} for no key update`);
    const terms = await floatingTermsOf(tx, team.id, now);
    if (!terms || terms.seats === 0) return { kind: "none" as const };
    await endStaleLeases(tx, team.id, now);
    const live = await tx
      .select({ id: seatLeases.id, deviceId: seatLeases.deviceId })
      .from(seatLeases)
      .where(liveLease(team.id, now))
      .orderBy(seatLeases.acquiredAt, seatLeases.id);
    const until = new Date(now.getTime() + env().FLOATING_LEASE_HOURS * HOUR_MS);
    const mine = live.findIndex((lease) => lease.deviceId === machine.deviceId);
    // Held already: renewed while it is among the leases the seats allow now (oldest first). A
    // team that bought fewer seats takes the newest leases back at their next check-in.
    if (mine >= 0 && mine < terms.allowed) {
      const lease = live[mine];
      if (!lease) throw new Error("unreachable: the lease found a line above");
      const [renewed] = await tx
        .update(seatLeases)
        .set({ renewedAt: now, expiresAt: until })
        .where(eq(seatLeases.id, lease.id))
        .returning({ overage: seatLeases.overage });
      return { kind: "held" as const, team, until, overage: renewed?.overage ?? false };
    }
    if (mine >= 0) {
      await endLeases(tx, eq(seatLeases.id, live[mine]?.id ?? ""), "seats-reduced", now);
      live.splice(mine, 1);
    }
    if (live.length < terms.allowed) {
      await tx.insert(seatLeases).values({
        organizationId: team.id,
        userId: machine.userId,
        deviceId: machine.deviceId,
        acquiredAt: now,
        renewedAt: now,
        expiresAt: until,
        overage: live.length >= terms.seats,
      });
      return { kind: "held" as const, team, until, overage: live.length >= terms.seats };
    }
    await tx.insert(seatLeaseRefusals).values({
      organizationId: team.id,
      userId: machine.userId,
      deviceId: machine.deviceId,
      seats: terms.seats,
      allowed: terms.allowed,
      refusedAt: now,
    });
    return {
      kind: "refused" as const,
      team,
      seats: terms.seats,
      allowed: terms.allowed,
      message: floatingRefusalText(team.name, terms.seats, terms.allowed),
    };
  });
}

/**
 * A machine's check-in (POST /api/desktop/heartbeat): when a team's floating seat is what would
 * give it Pro, takes or renews a lease (the teams whose seat would give the most first); when the
 * machine has Pro otherwise (its person's own plan, a named seat, a grant), gives back any lease
 * it holds, so it never keeps a seat another member could use.
 */
export async function takeFloatingSeat(
  machine: { deviceId: string; userId: string },
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<FloatingSeatOutcome> {
  const result = await database.execute(
    sql.raw(
      `select ${entitlementSourceColumns("u.id", `${literal(now)}::timestamptz`)}
       from "user" u where u.id = ${literal(machine.userId)}`,
    ),
  );
  const [row] = (result as unknown as { rows: EntitlementSourcesRow[] }).rows;
  const sources = sourcesOfRow(row);
  const floating = sources.seats.filter((seat) => seat.floating);
  // No team of theirs floats: nothing to take, and nothing that counts as held (a move to named
  // seats ended the leases; a lease of a team they left is not live: its holder is no member).
  // So the check-ins of everyone not in a floating team cost no write here.
  if (floating.length === 0) return { kind: "none" };
  const withoutFloating = decideEntitlement(
    { ...sources, seats: sources.seats.filter((seat) => !seat.floating) },
    now,
  );
  // The teams whose floating seat would give more than the machine has without one, best first.
  const teams: { id: string; name: string }[] = [];
  let rest = floating;
  for (;;) {
    const best = decideEntitlement({ ...sources, seats: rest }, now);
    const team = best.team;
    if (!team || best.device_limit <= withoutFloating.device_limit) break;
    if (!rest.some((seat) => seat.team.id === team.id)) break;
    teams.push(team);
    rest = rest.filter((seat) => seat.team.id !== team.id);
  }
  if (teams.length === 0) {
    await releaseMachineLeases([machine.deviceId], "own-plan", database, now);
    return { kind: "none" };
  }
  let refusal: FloatingSeatOutcome | null = null;
  for (const team of teams) {
    const outcome = await leaseFromTeam(database, team, machine, now);
    if (outcome.kind === "held") {
      // One seat is enough: a lease held in another team is given back.
      await endLeases(
        database,
        and(
          eq(seatLeases.deviceId, machine.deviceId),
          sql`${seatLeases.organizationId} <> ${team.id}`,
        ),
        "own-plan",
        now,
      );
      return outcome;
    }
    if (outcome.kind === "refused") refusal ??= outcome;
  }
  return refusal ?? { kind: "none" };
}

/** A machine's lease as the team page lists it. */
export interface LeaseLine {
  person: string;
  machine: string;
  /** The machine's platform; null for a licence file's machine (offline, never seen). */
  platform: string | null;
  /** Held by a team's licence file until `expiresAt`, which nothing ends sooner. */
  file: boolean;
  acquiredAt: string;
  renewedAt: string;
  expiresAt: string;
  overage: boolean;
}

/** What the team page shows of floating seats (for everyone in the team; names for managers). */
export interface FloatingSeatsView {
  mode: SeatMode;
  overagePercent: OveragePercent;
  seats: number;
  allowed: number;
  inUse: LeaseLine[];
  /** How many machines hold a lease now (members see this, not the list). */
  inUseCount: number;
  /** Machines beyond the seats now, admitted by the overage allowance. */
  over: number;
  /** The most machines that held a lease at once in the last 30 days. */
  peak30: number;
  refused: { person: string; machine: string | null; at: string }[];
  ended: { person: string; machine: string; at: string; reason: LeaseEndReason }[];
}

const personName = sql<string>`coalesce(nullif(${users.name}, ''), ${users.email})`;

/** The team's seat mode and, when its seats float, the leases in use, the peak and refusals. */
export async function floatingSeatsOf(
  organizationId: string,
  executor: Executor = defaultDb(),
  now: Date = new Date(),
): Promise<FloatingSeatsView> {
  const [current] = await executor
    .select({ seatMode: subscriptions.seatMode, overagePercent: subscriptions.overagePercent })
    .from(subscriptions)
    .where(eq(subscriptions.teamId, organizationId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  const terms = await floatingTermsOf(executor, organizationId, now);
  const from = new Date(now.getTime() - 30 * DAY_MS);
  const leases = await executor
    .select({
      person: personName,
      machine: sql<string>`coalesce(${desktopDevices.name}, ${offlineLicences.name}, '')`,
      platform: desktopDevices.platform,
      file: sql<boolean>`${seatLeases.offlineLicenceId} is not null`,
      acquiredAt: seatLeases.acquiredAt,
      renewedAt: seatLeases.renewedAt,
      expiresAt: seatLeases.expiresAt,
      releasedAt: seatLeases.releasedAt,
      releaseReason: seatLeases.releaseReason,
      overage: seatLeases.overage,
      live: sql<boolean>`${liveLease(organizationId, now)}`,
    })
    .from(seatLeases)
    .innerJoin(users, eq(users.id, seatLeases.userId))
    .leftJoin(desktopDevices, eq(desktopDevices.id, seatLeases.deviceId))
    .leftJoin(offlineLicences, eq(offlineLicences.id, seatLeases.offlineLicenceId))
    .where(
      and(
        eq(seatLeases.organizationId, organizationId),
        sql`coalesce(${seatLeases.releasedAt}, ${seatLeases.expiresAt}) >= ${from.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(seatLeases.acquiredAt);
  const refused = await executor
    .select({ person: personName, machine: desktopDevices.name, at: seatLeaseRefusals.refusedAt })
    .from(seatLeaseRefusals)
    .innerJoin(users, eq(users.id, seatLeaseRefusals.userId))
    .leftJoin(desktopDevices, eq(desktopDevices.id, seatLeaseRefusals.deviceId))
    .where(
      and(
        eq(seatLeaseRefusals.organizationId, organizationId),
        gte(seatLeaseRefusals.refusedAt, from),
      ),
    )
    .orderBy(desc(seatLeaseRefusals.refusedAt))
    .limit(50);
  const inUse = leases.filter((lease) => lease.live);
  const seats = terms?.seats ?? 0;
  return {
    mode: current?.seatMode ?? "named",
    overagePercent: current?.overagePercent ?? 0,
    seats,
    allowed: terms?.allowed ?? 0,
    inUse: inUse.map((lease) => ({
      person: lease.person,
      machine: lease.machine,
      platform: lease.platform,
      file: lease.file,
      acquiredAt: lease.acquiredAt.toISOString(),
      renewedAt: lease.renewedAt.toISOString(),
      expiresAt: lease.expiresAt.toISOString(),
      overage: lease.overage,
    })),
    inUseCount: inUse.length,
    over: Math.max(0, inUse.length - seats),
    peak30: peakOverlap(
      leases.map((lease) => ({
        start: lease.acquiredAt,
        end: lease.live ? now : (lease.releasedAt ?? lease.expiresAt),
      })),
      from,
      now,
    ),
    refused: refused.map((row) => ({
      person: row.person,
      machine: row.machine,
      at: row.at.toISOString(),
    })),
    // The 20 latest ends, latest first.
    ended: leases
      .flatMap((lease) =>
        lease.releasedAt && lease.releaseReason
          ? [
              {
                person: lease.person,
                machine: lease.machine,
                releasedAt: lease.releasedAt,
                reason: lease.releaseReason,
              },
            ]
          : [],
      )
      .sort((a, b) => b.releasedAt.getTime() - a.releasedAt.getTime())
      .slice(0, 20)
      .map(({ releasedAt, ...end }) => ({ ...end, at: releasedAt.toISOString() })),
  };
}

/**
 * The owner's choice of how the team's seats are held, on its subscriptions that still run (a
 * change of seats carries it to the subscription that replaces them). Moving to named seats ends
 * every lease; moving to floating leaves the named seats in place for a move back.
 */
export async function setSeatMode(
  organizationId: string,
  choice: { mode: SeatMode; overagePercent: OveragePercent },
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<number> {
  return database.transaction(async (tx) => {
    await tx.execute(
      sql`select id from organization where id = ${organizationId} for no key update`,
    );
    if (choice.mode === "named") {
      // A licence file holds its floating seat until it expires: it cannot be taken back.
      const [file] = await tx
        .select({ until: seatLeases.expiresAt })
        .from(seatLeases)
        .where(and(liveLease(organizationId, now), byFile))
        .orderBy(desc(seatLeases.expiresAt))
        .limit(1);
      if (file)
        throw new AppError(
          "conflict",
          `A licence file for a computer without internet holds one of the floating seats until ${formatDate(file.until)}, and cannot be taken back: the seats can be named from then.`,
        );
    }
    const running = (
      await tx
        .select({ id: subscriptions.id, status: subscriptions.status })
        .from(subscriptions)
        .where(eq(subscriptions.teamId, organizationId))
    ).filter((row) => !STATUS_RULES[row.status].final);
    if (running.length > 0)
      await tx
        .update(subscriptions)
        .set({
          seatMode: choice.mode,
          overagePercent: choice.mode === "floating" ? choice.overagePercent : 0,
        })
        .where(
          inArray(
            subscriptions.id,
            running.map((row) => row.id),
          ),
        );
    if (choice.mode === "named") {
      await endLeases(tx, eq(seatLeases.organizationId, organizationId), "mode-changed", now);
      // The named seats count again: the seat rule takes back any beyond those paid.
      await queueSeatTrim(tx, organizationId);
    }
    return running.length;
  });
}

/** The `floating_seat` of a check-in's answer: null when no floating seat is involved. */
export function floatingSeatAnswer(outcome: FloatingSeatOutcome) {
  switch (outcome.kind) {
    case "none":
      return null;
    case "held":
      return {
        status: "held" as const,
        team: outcome.team,
        lease_until: outcome.until.toISOString(),
        overage: outcome.overage,
      };
    case "refused":
      return {
        status: "refused" as const,
        team: outcome.team,
        seats: outcome.seats,
        machines_allowed: outcome.allowed,
        message: outcome.message,
      };
  }
}

/**
 * A licence file for one of the team's machines without internet (issue 57, point 3, from the team
 * page): it holds one of the floating seats until it expires (chosen days, never past what is
 * paid), decided under the team's lock as a check-in's lease is; nothing ends it sooner. Refused
 * by code (TEAM_LICENCE_FILE_REFUSALS): the seats are named, all are in use, or what is paid ends
 * within the hour.
 */
export async function issueTeamLicenceFile(
  team: { id: string; name: string },
  madeBy: string,
  input: { name: string; fingerprint: string; days: number },
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<{ body: string; filename: string; expiresAt: Date }> {
  const id = randomUUID();
  const sign = await licenceFileSigner(database);
  const token = await database.transaction(async (tx) => {
    await tx.execute(sql`select id from organization where id = ${team.id} for no key update`);
    const terms = await floatingTermsOf(tx, team.id, now);
    const plan = terms ? findPlan(terms.planId) : undefined;
    if (!terms || terms.seats === 0 || !plan)
      throw new AppError("conflict", TEAM_LICENCE_FILE_REFUSALS.named, { field: "named" });
    await endStaleLeases(tx, team.id, now);
    const [live] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(seatLeases)
      .where(liveLease(team.id, now));
    const inUse = Number(live?.count ?? 0);
    if (inUse >= terms.allowed)
      throw new AppError("conflict", TEAM_LICENCE_FILE_REFUSALS.full, { field: "full" });
    const wanted = now.getTime() + input.days * DAY_MS;
    const end = terms.paidUntil === "open" ? wanted : Math.min(wanted, terms.paidUntil.getTime());
    if (end - now.getTime() < HOUR_MS)
      throw new AppError("conflict", TEAM_LICENCE_FILE_REFUSALS.ends, { field: "ends" });
    const expiresAt = new Date(Math.floor(end / 1000) * 1000);
    const signed = sign({
      entitlement: entitlementOf(plan, expiresAt, false, { ...team, floating: true }),
      machine: { fingerprint_sha256: fingerprintHash(input.fingerprint), name: input.name },
      licence_id: id,
      sub: madeBy,
      iat: Math.floor(now.getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    });
    await tx.insert(offlineLicences).values({
      id,
      userId: madeBy,
      organizationId: team.id,
      name: input.name,
      fingerprintHash: fingerprintHash(input.fingerprint),
      kid: signed.kid,
      expiresAt,
      createdAt: now,
    });
    await tx.insert(seatLeases).values({
      organizationId: team.id,
      userId: madeBy,
      offlineLicenceId: id,
      acquiredAt: now,
      renewedAt: now,
      expiresAt,
      overage: inUse >= terms.seats,
    });
    return { token: signed.token, expiresAt };
  });
  return licenceFileDownload(input.name, token.expiresAt, token.token);
}
