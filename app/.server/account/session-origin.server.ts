/**
 * How a browser session came to be, read from its row every time (never from the cookie cache, so
 * a confirmation counts at once and a revoked session counts for nothing).
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { account as accounts, session as sessions } from "../db/schema";
import { needsStepUp, type SessionOrigin } from "./sensitive-rules";

export async function sessionOrigin(
  sessionId: string,
  database: Database = defaultDb(),
): Promise<SessionOrigin | null> {
  const [row] = await database
    .select({
      createdAt: sessions.createdAt,
      desktopDeviceId: sessions.desktopDeviceId,
      stepUpAt: sessions.stepUpAt,
    })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return row ?? null;
}

/**
 * Whether this session must "Confirm it's you" before a sensitive action: a browser opened from
 * the desktop app that has not confirmed in the last 10 minutes, or a session whose row is gone.
 */
export async function stepUpPending(
  sessionId: string,
  database: Database = defaultDb(),
): Promise<boolean> {
  const origin = await sessionOrigin(sessionId, database);
  return !origin || needsStepUp(origin);
}

/** "Confirm it's you" succeeded in this session: sensitive actions may follow for a while. */
export async function recordStepUp(
  sessionId: string,
  at: Date = new Date(),
  database: Database = defaultDb(),
): Promise<void> {
  await database.update(sessions).set({ stepUpAt: at }).where(eq(sessions.id, sessionId));
}

/** Whether the user can sign in with a password (Google-only accounts cannot). */
export async function hasPassword(userId: string, database: Database = defaultDb()) {
  const [row] = await database
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.userId, userId),
        eq(accounts.providerId, "credential"),
        isNotNull(accounts.password),
      ),
    )
    .limit(1);
  return Boolean(row);
}
