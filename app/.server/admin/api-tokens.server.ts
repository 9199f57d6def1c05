import { and, desc, eq, isNull } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { adminApiTokens, user as users } from "../db/schema";
import { getSession, isAdmin, roleOf } from "../auth/session";
import { isReadOnlyMethod } from "../auth/guards";
import { stepUpPending } from "../account/session-origin.server";
import { hashToken, randomToken } from "../security/tokens";

/** Admin API tokens start with this, so a leaked one is recognisable (secret scanners, logs). */
export const ADMIN_TOKEN_PREFIX = "pinout_admin_";

export interface AdminCaller {
  userId: string;
  email: string;
  via: "session" | "token";
}

/** Creates a token for an admin; the plain token is returned once and only its hash is kept. */
export async function createAdminToken(
  userId: string,
  name: string,
  database: Database = defaultDb(),
): Promise<string> {
  const token = `${ADMIN_TOKEN_PREFIX}${randomToken()}`;
  await database.insert(adminApiTokens).values({ userId, name, tokenHash: hashToken(token) });
  return token;
}

export async function listAdminTokens(database: Database = defaultDb()) {
  return database
    .select({
      id: adminApiTokens.id,
      name: adminApiTokens.name,
      email: users.email,
      createdAt: adminApiTokens.createdAt,
      lastUsedAt: adminApiTokens.lastUsedAt,
    })
    .from(adminApiTokens)
    .innerJoin(users, eq(users.id, adminApiTokens.userId))
    .where(isNull(adminApiTokens.revokedAt))
    .orderBy(desc(adminApiTokens.createdAt));
}

export async function revokeAdminToken(id: string, database: Database = defaultDb()) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return;
  await database
    .update(adminApiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(adminApiTokens.id, id), isNull(adminApiTokens.revokedAt)));
}

/**
 * Who calls an admin API: an admin API token (`Authorization: Bearer pinout_admin_…`, looked up
 * by hash; its owner must still be an admin) or a signed-in admin's session. Null otherwise, and
 * `forbidden` when signed in without the role.
 */
export async function adminCaller(
  request: Request,
  database: Database = defaultDb(),
): Promise<AdminCaller | "forbidden" | "step-up" | null> {
  const header = request.headers.get("authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (bearer?.startsWith(ADMIN_TOKEN_PREFIX)) {
    const [row] = await database
      .select({ tokenId: adminApiTokens.id, user: users })
      .from(adminApiTokens)
      .innerJoin(users, eq(users.id, adminApiTokens.userId))
      .where(and(eq(adminApiTokens.tokenHash, hashToken(bearer)), isNull(adminApiTokens.revokedAt)))
      .limit(1);
    if (!row) return null;
    if (roleOf(row.user) !== "admin") return "forbidden";
    await database
      .update(adminApiTokens)
      .set({ lastUsedAt: new Date() })
      .where(eq(adminApiTokens.id, row.tokenId));
    return { userId: row.user.id, email: row.user.email, via: "token" };
  }
  const session = await getSession(request);
  if (!session) return null;
  if (!isAdmin(session)) return "forbidden";
  // A desktop-opened browser changes nothing here before "Confirm it's you" (as on the pages).
  if (!isReadOnlyMethod(request.method) && (await stepUpPending(session.id))) return "step-up";
  return { userId: session.user.id, email: session.user.email, via: "session" };
}
