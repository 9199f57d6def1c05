/**
 * Teams (issue 37, decision 0054): a company's team with its billing identity, its members and
 * their roles, and invitations by email. Membership is Better Auth's organization plugin's,
 * called through `auth().api.*` with the signed-in person's request (never over HTTP: decision
 * 0028), so its checks apply: roles and permissions, an invitation accepted only by the address
 * it was sent to, once, before it expires, the last owner unable to leave. Every refusal becomes
 * an AppError with words for the page.
 */
import { INVITATION_WAITING } from "./invitation-status";
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { type BillingDetails } from "~/lib/billing-details";
import { auth } from "../auth/auth.server";
import { db as defaultDb, type Executor } from "../db";
import {
  invitation as invitations,
  member as members,
  organization as organizations,
  teamProfiles,
  teamSeats,
  user as users,
} from "../db/schema";
import { hitRateLimit } from "../security/rate-limit.server";
import { teamNameProblem } from "~/lib/team-name";
import { AppError } from "../http/errors";
import { queueMail } from "../mail/outbox.server";
import { teamInvitationMessage } from "../mail/team-templates";
import { env } from "../env";
import { kickJobs } from "../jobs/kick";
import { TEAM_ROLE_LABELS, TEAM_ROLES, type TeamRole } from "./roles";
import {
  holdsSeat,
  memberDeviceCount,
  memberLastSeen,
  memberSilentDevices,
} from "./member-columns";
import { silentBefore } from "../desktop/check-ins.server";
import { assertSeatForInvitation, giveSeat, releaseSeat, withSeatLease } from "./seats.server";

/** The plugin's refusals, in our words (by its error code). */
const REFUSALS: Record<string, string> = {
  INVITATION_NOT_FOUND:
    "This invitation is no longer valid: it was used, withdrawn or has expired. Ask for a new one.",
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION:
    "This invitation was sent to another email address. Sign in with that address to accept it.",
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION:
    "Confirm your email address first (the link we mailed you), then accept the invitation.",
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "That person is already in the team.",
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION:
    "That address has an invitation waiting already: resend it from the list below.",
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION:
    "Only the team's owner and billing managers invite people.",
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: "Only the owner gives that role.",
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION:
    "Only the team's owner and billing managers withdraw invitations.",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: "Only the team's owner removes people.",
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: "Only the team's owner changes roles.",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER:
    "You are the team's only owner: make someone else owner first.",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER:
    "The team needs an owner: make someone else owner first.",
  MEMBER_NOT_FOUND: "That person is not in the team.",
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: "The team is full.",
};

/** Runs a plugin call; its refusal becomes an AppError with our words. */
async function plugin<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const body = (error as { body?: { code?: unknown; message?: unknown } }).body;
    const code = typeof body?.code === "string" ? body.code : null;
    if (code && REFUSALS[code]) {
      const status = (error as { statusCode?: number }).statusCode;
      throw new AppError(status === 403 ? "forbidden" : "conflict", REFUSALS[code]);
    }
    throw error;
  }
}

export interface TeamSummary {
  id: string;
  name: string;
  role: TeamRole;
  /** Holds one of the team's seats (which gives Pro while the team's subscription does). */
  seat: boolean;
}

export function isTeamRole(value: unknown): value is TeamRole {
  return (TEAM_ROLES as readonly unknown[]).includes(value);
}

/** The teams a person belongs to, with their role in each. */
export async function teamsOf(
  userId: string,
  database: Executor = defaultDb(),
): Promise<TeamSummary[]> {
  const rows = await database
    .select({
      id: organizations.id,
      name: organizations.name,
      role: members.role,
      seat: holdsSeat(),
    })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .leftJoin(
      teamSeats,
      and(eq(teamSeats.organizationId, members.organizationId), eq(teamSeats.userId, userId)),
    )
    .where(eq(members.userId, userId))
    .orderBy(asc(organizations.name));
  return rows.map((row) => ({
    ...row,
    seat: Boolean(row.seat),
    role: isTeamRole(row.role) ? row.role : "member",
  }));
}

/** Whether a person is the team's owner or one of its billing managers (who see its billing). */
export async function managesTeam(
  userId: string,
  organizationId: string,
  database: Executor = defaultDb(),
): Promise<boolean> {
  const [row] = await database
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  return row?.role === "owner" || row?.role === "billing";
}

/** A team's billing details, checked like a person's (GSTIN against its state). */
export async function createTeam(
  request: Request,
  details: BillingDetails,
  database: Executor = defaultDb(),
): Promise<{ id: string }> {
  assertTeamName(details.name);
  const created = await plugin(() =>
    auth().api.createOrganization({
      headers: request.headers,
      // The slug is the plugin's unique key; ours are random (a team is reached by its id).
      body: { name: details.name, slug: `team-${randomBytes(6).toString("hex")}` },
    }),
  );
  if (!created) throw new Error("the team was not created");
  await saveTeamProfile(created.id, details, database);
  return { id: created.id };
}

function assertTeamName(name: string): void {
  const problem = teamNameProblem(name);
  if (problem) throw new AppError("invalid", problem, { field: "name" });
}

export async function saveTeamProfile(
  organizationId: string,
  details: BillingDetails,
  database: Executor = defaultDb(),
): Promise<void> {
  assertTeamName(details.name);
  // The same shape as a person's billing profile (the schema's shared columns).
  const values = { ...details, updatedAt: new Date() };
  await database
    .insert(teamProfiles)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: teamProfiles.organizationId, set: values });
  await database
    .update(organizations)
    .set({ name: details.name })
    .where(eq(organizations.id, organizationId));
}

export interface TeamView {
  id: string;
  name: string;
  myRole: TeamRole;
  profile: BillingDetails | null;
  members: {
    /** Signed-in desktop devices, for the owner and billing managers only (never which ones). */
    devices: number | null;
    /** When their most recently used machine last checked in (managers only). */
    lastSeenAt: string | null;
    /** Their signed-in machines silent past DEVICE_SILENT_DAYS, slots freed (managers only). */
    silentDevices: number | null;
    id: string;
    userId: string;
    name: string;
    email: string;
    role: TeamRole;
    joinedAt: string;
  }[];
  /** Pending and unexpired; only for those who may invite (owner, billing managers). */
  invitations: { id: string; email: string; role: TeamRole; expiresAt: string }[];
}

/**
 * A team as one of its members sees it; null for anyone else (the page answers 404, so a team's
 * existence is not confirmed to outsiders).
 */
export async function teamViewFor(
  userId: string,
  organizationId: string,
  database: Executor = defaultDb(),
  now = new Date(),
): Promise<TeamView | null> {
  const [mine] = await database
    .select({ role: members.role, name: organizations.name })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  if (!mine) return null;
  const myRole: TeamRole = isTeamRole(mine.role) ? mine.role : "member";
  const [profile] = await database
    .select()
    .from(teamProfiles)
    .where(eq(teamProfiles.organizationId, organizationId));
  const people = await database
    .select({
      id: members.id,
      userId: members.userId,
      role: members.role,
      joinedAt: members.createdAt,
      name: users.name,
      email: users.email,
      // A count, never the devices themselves (issue 37, point 7); when last seen and how many
      // fell silent (issue 57).
      devices: memberDeviceCount(),
      lastSeen: memberLastSeen(),
      silent: memberSilentDevices(silentBefore(now)),
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(members.organizationId, organizationId))
    .orderBy(asc(members.createdAt));
  const pending =
    myRole === "member"
      ? []
      : await database
          .select()
          .from(invitations)
          .where(
            and(
              eq(invitations.organizationId, organizationId),
              eq(invitations.status, INVITATION_WAITING),
              gt(invitations.expiresAt, now),
            ),
          )
          .orderBy(asc(invitations.createdAt));
  return {
    id: organizationId,
    name: mine.name,
    myRole,
    profile: profile
      ? {
          name: profile.name,
          addressLine1: profile.addressLine1,
          addressLine2: profile.addressLine2,
          city: profile.city,
          postalCode: profile.postalCode,
          stateCode: profile.stateCode,
          gstin: profile.gstin,
          countryCode: profile.countryCode,
          taxId: profile.taxId,
        }
      : null,
    members: people.map((person) => ({
      id: person.id,
      userId: person.userId,
      name: person.name,
      email: person.email,
      role: isTeamRole(person.role) ? person.role : "member",
      joinedAt: person.joinedAt.toISOString(),
      devices: myRole === "member" ? null : Number(person.devices),
      lastSeenAt:
        myRole === "member" || person.lastSeen === null
          ? null
          : new Date(person.lastSeen).toISOString(),
      silentDevices: myRole === "member" ? null : Number(person.silent),
    })),
    invitations: pending.map((row) => ({
      id: row.id,
      email: row.email,
      role: isTeamRole(row.role) ? row.role : "member",
      expiresAt: row.expiresAt.toISOString(),
    })),
  };
}

/**
 * How many invitations may be sent (finding 2): each one mails an address that asked for
 * nothing, with words a stranger chose, so a team that has never paid is held to a few, and
 * every team, inviter and address to a rate. Sending again counts as sending.
 */
export const INVITATION_LIMITS = {
  perInviterPerHour: 30,
  perAddressPerDay: 3,
  perTeamPerDay: 100,
  /** A team that has never paid: invitations a day, and waiting at once. */
  unpaidPerDay: 10,
  unpaidWaiting: 5,
} as const;

async function assertMayInvite(
  input: { organizationId: string; email: string; inviterId: string; resend?: boolean },
  database: Executor,
): Promise<void> {
  const [team] = await database
    .select({
      name: organizations.name,
      // Written out with table names: drizzle leaves a one-table select's columns unqualified.
      paid: sql<boolean>`exists (select 1 from payments p
        join subscriptions s on s.id = p.subscription_id
        where s.team_id = "organization".id and p.status in ('captured', 'refunded'))`,
      waiting: sql<number>`(select count(*)::int from invitation i
        where i.organization_id = "organization".id and i.status = 'pending'
          and i.expires_at > now())`,
    })
    .from(organizations)
    .where(eq(organizations.id, input.organizationId));
  if (!team) throw new AppError("not_found", "That team does not exist.");
  // A name given before names were checked still never reaches a stranger's mailbox.
  const problem = teamNameProblem(team.name);
  if (problem)
    throw new AppError("conflict", `Change the team's name before inviting anyone: ${problem}`);
  const paid = Boolean(team.paid);
  // Sending one again replaces it: the number waiting stays.
  if (!paid && !input.resend && Number(team.waiting) >= INVITATION_LIMITS.unpaidWaiting)
    throw new AppError(
      "conflict",
      `A team that has not bought seats yet can have ${INVITATION_LIMITS.unpaidWaiting} invitations waiting at most. Withdraw one, or buy seats first.`,
      { field: "email" },
    );
  const limits: [string, number, number, string][] = [
    [
      `team-invite:inviter:${input.inviterId}`,
      INVITATION_LIMITS.perInviterPerHour,
      3600,
      "You have sent many invitations in the last hour.",
    ],
    [
      `team-invite:address:${input.email.toLowerCase()}`,
      INVITATION_LIMITS.perAddressPerDay,
      86_400,
      `${input.email} has been invited several times today.`,
    ],
    [
      `team-invite:team:${input.organizationId}`,
      paid ? INVITATION_LIMITS.perTeamPerDay : INVITATION_LIMITS.unpaidPerDay,
      86_400,
      "The team has sent many invitations today.",
    ],
  ];
  for (const [key, max, window, words] of limits) {
    const hit = await hitRateLimit(key, max, window);
    if (!hit.allowed)
      throw new AppError(
        "rate_limited",
        `${words} Try again in ${Math.ceil(hit.retryAfter / 60)} minutes.`,
        { field: "email" },
      );
  }
}

/** Invites an address (or sends its invitation again, with a new week): the mail is queued. */
export async function inviteToTeam(
  request: Request,
  input: {
    organizationId: string;
    email: string;
    role: Exclude<TeamRole, "owner">;
    /** The signed-in inviter: their role in the team is read here, not taken from the caller. */
    inviterId: string;
    resend?: boolean;
  },
  database: Executor = defaultDb(),
): Promise<{ id: string; email: string }> {
  // The plugin lets a billing manager invite billing managers; the page offers that role to
  // owners only, and so does the server (finding 4), from the inviter's stored role. Sending an
  // owner's invitation again keeps its role.
  const [inviting] = await database
    .select({ role: members.role })
    .from(members)
    .where(
      and(eq(members.organizationId, input.organizationId), eq(members.userId, input.inviterId)),
    );
  if (input.role === "billing" && inviting?.role !== "owner" && !input.resend)
    throw new AppError(
      "forbidden",
      REFUSALS.YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE ?? "",
    );
  await assertMayInvite(input, database);
  // Under the seat lease: an invitation holds a seat until it is answered (point 2), so two
  // invitations at once never promise the same free seat.
  const invited = await withSeatLease(input.organizationId, async () => {
    await assertSeatForInvitation(input.organizationId, input.email, database);
    return plugin(() =>
      auth().api.createInvitation({
        headers: request.headers,
        body: {
          organizationId: input.organizationId,
          email: input.email,
          role: input.role,
          resend: input.resend ?? false,
        },
      }),
    );
  });
  const [team] = await database
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, input.organizationId));
  const [inviter] = await database
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, invited.inviterId));
  await queueMail(
    database,
    teamInvitationMessage({
      to: invited.email,
      team: team?.name ?? "a team",
      inviter: inviter?.name ?? "Someone",
      inviterEmail: inviter?.email ?? "",
      role: TEAM_ROLE_LABELS[isTeamRole(invited.role) ? invited.role : "member"],
      url: `${env().SITE_URL.replace(/\/+$/, "")}/team-invite/${invited.id}`,
      expiresAt: invited.expiresAt,
    }),
    `team-invitation:${invited.id}:${invited.expiresAt.toISOString()}`,
  );
  kickJobs();
  return { id: invited.id, email: invited.email };
}

/** An invitation as its page shows it, whoever opens the link. */
export async function invitationById(
  invitationId: string,
  database: Executor = defaultDb(),
  now = new Date(),
): Promise<{
  id: string;
  email: string;
  team: string;
  organizationId: string;
  role: TeamRole;
  valid: boolean;
} | null> {
  const [row] = await database
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      status: invitations.status,
      expiresAt: invitations.expiresAt,
      organizationId: invitations.organizationId,
      team: organizations.name,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(eq(invitations.id, invitationId));
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    team: row.team,
    organizationId: row.organizationId,
    role: isTeamRole(row.role) ? row.role : "member",
    valid: row.status === INVITATION_WAITING && row.expiresAt > now,
  };
}

/**
 * Accepts an invitation for the signed-in person, who takes one of the team's seats when it has
 * bought seats and one is free (the invitation held it); whether they got one.
 */
export async function acceptInvitation(
  request: Request,
  invitationId: string,
  userId: string,
  database: Executor = defaultDb(),
): Promise<{ organizationId: string; seat: "given" | "full" | "none" | "floating" }> {
  const [pending] = await database
    .select({ organizationId: invitations.organizationId })
    .from(invitations)
    .where(eq(invitations.id, invitationId));
  // An unknown invitation has no team to lock: the plugin refuses it in our words.
  if (!pending)
    return { organizationId: await acceptAtPlugin(request, invitationId), seat: "none" };
  const organizationId = pending.organizationId;
  return withSeatLease(organizationId, async () => {
    // The seat is written before the membership (finding 8): a crash or a full disk between the
    // two leaves a seat row of someone who is not a member, which counts for nothing and is
    // cleared here on the next try, never a member whose invitation was used up without the
    // seat it held. A row left by a removal that stopped half-way is cleared the same way, so
    // it never gives a seat without the capacity check ("also close").
    await clearStaleSeat(organizationId, userId, database);
    const seat = await giveSeat(organizationId, userId, database, { ignoreInvitations: true });
    try {
      await acceptAtPlugin(request, invitationId);
    } catch (error) {
      if (seat === "given") await clearStaleSeat(organizationId, userId, database);
      throw error;
    }
    return { organizationId, seat };
  });
}

async function acceptAtPlugin(request: Request, invitationId: string): Promise<string> {
  const accepted = await plugin(() =>
    auth().api.acceptInvitation({ headers: request.headers, body: { invitationId } }),
  );
  if (!accepted) throw new AppError("conflict", REFUSALS.INVITATION_NOT_FOUND ?? "");
  return accepted.member.organizationId;
}

/** Deletes a person's seat row in a team they are not a member of. */
async function clearStaleSeat(organizationId: string, userId: string, database: Executor) {
  await database
    .delete(teamSeats)
    .where(
      and(
        eq(teamSeats.organizationId, organizationId),
        eq(teamSeats.userId, userId),
        sql`not exists (select 1 from ${members} where ${members.organizationId} = ${organizationId} and ${members.userId} = ${userId})`,
      ),
    );
}

export async function declineInvitation(request: Request, invitationId: string) {
  await plugin(() =>
    auth().api.rejectInvitation({ headers: request.headers, body: { invitationId } }),
  );
}

export async function withdrawInvitation(request: Request, invitationId: string) {
  await plugin(() =>
    auth().api.cancelInvitation({ headers: request.headers, body: { invitationId } }),
  );
}

/** A member of this team by their member id, or the refusal in words (another team's member). */
async function memberOf(organizationId: string, memberId: string, database: Executor) {
  const [person] = await database
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.organizationId, organizationId)));
  if (!person) throw new AppError("not_found", REFUSALS.MEMBER_NOT_FOUND ?? "");
  return person;
}

/**
 * Removes a member; their seat is free at once (their devices lose Pro at their next check).
 * Every change of who is in the team, or of their role, runs under the team's seat lease on every
 * instance (finding 5): the plugin counts the owners, then writes, so two owners demoting,
 * removing each other or leaving at the same moment would otherwise leave the team with none.
 */
export async function removeFromTeam(
  request: Request,
  organizationId: string,
  memberId: string,
  database: Executor = defaultDb(),
) {
  await withSeatLease(organizationId, async () => {
    const person = await memberOf(organizationId, memberId, database);
    await plugin(() =>
      auth().api.removeMember({
        headers: request.headers,
        body: { organizationId, memberIdOrEmail: memberId },
      }),
    );
    await releaseSeat(organizationId, person.userId, database);
  });
}

export async function leaveTeam(
  request: Request,
  organizationId: string,
  userId: string,
  database: Executor = defaultDb(),
) {
  await withSeatLease(organizationId, async () => {
    await plugin(() =>
      auth().api.leaveOrganization({ headers: request.headers, body: { organizationId } }),
    );
    await releaseSeat(organizationId, userId, database);
  });
}

export async function changeTeamRole(
  request: Request,
  organizationId: string,
  memberId: string,
  role: TeamRole,
  database: Executor = defaultDb(),
) {
  await withSeatLease(organizationId, async () => {
    await memberOf(organizationId, memberId, database);
    await plugin(() =>
      auth().api.updateMemberRole({
        headers: request.headers,
        body: { organizationId, memberId, role },
      }),
    );
  });
}
