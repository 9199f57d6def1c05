import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Role, roleOf } from "../auth/session";
import { type Database, db as defaultDb } from "../db";
import { desktopDevices, user as users } from "../db/schema";
import { env } from "../env";
import { type PageWindow, pageWindow } from "~/lib/paging";

export const USERS_PER_PAGE = 25;

export const roleSchema = z.enum(["user", "admin"]);

/** ?q= and ?page= of the users page; anything malformed falls back to the first page of all. */
export const userQuerySchema = z.object({
  q: z.string().trim().max(200).catch(""),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

export type UserQuery = z.infer<typeof userQuerySchema>;

export function parseUserQuery(searchParams: URLSearchParams): UserQuery {
  return userQuerySchema.parse({
    q: searchParams.get("q") ?? "",
    page: searchParams.get("page") ?? 1,
  });
}

/** Text searched with LIKE matches itself only: % and _ are not wildcards typed by the operator. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Effective admins: the stored role, or a verified email listed in ADMIN_EMAILS (as roleOf). */
function effectiveAdmin(): SQL {
  const listed = env().ADMIN_EMAILS;
  const stored = eq(users.role, "admin");
  if (listed.length === 0) return stored;
  return (
    or(stored, and(eq(users.emailVerified, true), inArray(sql`lower(${users.email})`, listed))) ??
    stored
  );
}

export interface UserCounts {
  total: number;
  verified: number;
  admins: number;
}

export async function userCounts(database: Database = defaultDb()): Promise<UserCounts> {
  const [row] = await database
    .select({
      total: count(),
      verified: sql<number>`count(*) filter (where ${users.emailVerified})`.mapWith(Number),
      admins: sql<number>`count(*) filter (where ${effectiveAdmin()})`.mapWith(Number),
    })
    .from(users);
  return { total: row?.total ?? 0, verified: row?.verified ?? 0, admins: row?.admins ?? 0 };
}

export interface UserListRow {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  /** The role that counts (stored role or ADMIN_EMAILS). */
  role: Role;
  /** Admin only because ADMIN_EMAILS lists the email: changing the stored role changes nothing. */
  adminByEmail: boolean;
  createdAt: string;
  activeDevices: number;
}

export interface UserList extends PageWindow {
  q: string;
  total: number;
  perPage: number;
  users: UserListRow[];
}

function toListRow(row: {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: string | null;
  createdAt: Date;
  activeDevices: number;
}): UserListRow {
  const role = roleOf(row);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    role,
    adminByEmail: role === "admin" && row.role !== "admin",
    createdAt: row.createdAt.toISOString(),
    activeDevices: row.activeDevices,
  };
}

/** One page of users, newest first, optionally matching an email or name fragment. */
export async function searchUsers(
  query: UserQuery,
  database: Database = defaultDb(),
): Promise<UserList> {
  const pattern = `%${escapeLike(query.q)}%`;
  const where = query.q ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined;
  const [counted] = await database.select({ value: count() }).from(users).where(where);
  const total = counted?.value ?? 0;
  const window = pageWindow(query.page, total, USERS_PER_PAGE);
  const active = database
    .select({ userId: desktopDevices.userId, value: count().as("active_devices") })
    .from(desktopDevices)
    .where(isNull(desktopDevices.revokedAt))
    .groupBy(desktopDevices.userId)
    .as("active");
  const rows = await database
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      role: users.role,
      createdAt: users.createdAt,
      activeDevices: sql<number>`coalesce(${active.value}, 0)`.mapWith(Number),
    })
    .from(users)
    .leftJoin(active, eq(active.userId, users.id))
    .where(where)
    // The id breaks ties so that pages never repeat or skip a user created in the same instant.
    .orderBy(desc(users.createdAt), users.id)
    .limit(USERS_PER_PAGE)
    .offset(window.offset);
  return {
    ...window,
    q: query.q,
    total,
    perPage: USERS_PER_PAGE,
    users: rows.map(toListRow),
  };
}

export type RoleChangeResult =
  | { ok: true; message: string; user: { id: string; email: string; role: Role } }
  | { ok: false; status: 400 | 404; message: string };

/** Why a role change is refused before touching the database, or null when it may go ahead. */
export function roleChangeRefusal(
  actorId: string,
  targetId: string,
  role: z.infer<typeof roleSchema>,
): string | null {
  if (actorId === targetId && role !== "admin") {
    return "You cannot remove your own admin role: ask another admin to do it.";
  }
  return null;
}

interface RoleRow {
  id: string;
  email: string;
  emailVerified: boolean;
  role: string | null;
}

async function writeRole(where: SQL, role: Role, database: Database): Promise<RoleRow | null> {
  const [row] = await database.update(users).set({ role }).where(where).returning({
    id: users.id,
    email: users.email,
    emailVerified: users.emailVerified,
    role: users.role,
  });
  return row ?? null;
}

function describeChange(row: RoleRow): RoleChangeResult & { ok: true } {
  const effective = roleOf(row);
  const message =
    row.role !== "admin" && effective === "admin"
      ? `${row.email} is stored as user but stays an admin while ADMIN_EMAILS lists the address.`
      : // Better Auth keeps a signed copy of the session in a cookie for up to five minutes.
        `${row.email} is now ${effective}. Browsers already signed in see the change within five minutes.`;
  return { ok: true, message, user: { id: row.id, email: row.email, role: effective } };
}

/** Sets a user's stored role from the admin page; refuses to let an admin demote themselves. */
export async function changeUserRole(
  input: { actorId: string; targetId: string; role: Role },
  database: Database = defaultDb(),
): Promise<RoleChangeResult> {
  const refusal = roleChangeRefusal(input.actorId, input.targetId, input.role);
  if (refusal) return { ok: false, status: 400, message: refusal };
  const row = await writeRole(eq(users.id, input.targetId), input.role, database);
  return row
    ? describeChange(row)
    : { ok: false, status: 404, message: "That user no longer exists." };
}

/** Sets a user's stored role by email (the operator CLI); null when no account has the email. */
export async function setRoleByEmail(
  email: string,
  role: Role,
  database: Database = defaultDb(),
): Promise<(RoleChangeResult & { ok: true }) | null> {
  const row = await writeRole(
    eq(sql`lower(${users.email})`, email.trim().toLowerCase()),
    role,
    database,
  );
  return row ? describeChange(row) : null;
}

/** A user's account by email (case-insensitive), for the support pages. */
export async function findUserByEmail(email: string, database: Database = defaultDb()) {
  const [row] = await database
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function findUserById(id: string, database: Database = defaultDb()) {
  const [row] = await database.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Signed-in desktop devices of every user (not revoked), for the dashboard. */
export async function activeDevicesTotal(database: Database = defaultDb()): Promise<number> {
  const [row] = await database
    .select({ value: count() })
    .from(desktopDevices)
    .where(isNull(desktopDevices.revokedAt));
  return row?.value ?? 0;
}
