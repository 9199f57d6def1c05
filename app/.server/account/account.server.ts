import { desc, eq } from "drizzle-orm";
import { auth } from "../auth/auth.server";
import { db } from "../db";
import {
  account as accounts,
  desktopDevices,
  desktopUsageEvents,
  feedback,
  session as sessions,
  supportTickets,
  user as users,
} from "../db/schema";
import { threadOf } from "../support/thread.server";

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** Better Auth's APIError carries the user-facing text in body.message. */
function messageOf(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const body = (error as { body?: { message?: unknown } }).body;
    if (body && typeof body.message === "string") return body.message;
    if (error instanceof Error) return error.message;
  }
  return "Something went wrong. Please try again.";
}

/** Everything stored about a user, as JSON (the DPDP right of access). No secrets or hashes. */
export async function exportUserData(userId: string) {
  const database = db();
  const [profile] = await database.select().from(users).where(eq(users.id, userId));
  if (!profile) return null;
  const logins = await database.select().from(accounts).where(eq(accounts.userId, userId));
  const browserSessions = await database.select().from(sessions).where(eq(sessions.userId, userId));
  const devices = await database
    .select()
    .from(desktopDevices)
    .where(eq(desktopDevices.userId, userId));
  const usage = await database
    .select()
    .from(desktopUsageEvents)
    .where(eq(desktopUsageEvents.userId, userId))
    .orderBy(desc(desktopUsageEvents.occurredAt));
  const messages = await database.select().from(feedback).where(eq(feedback.userId, userId));
  // The tickets as the customer sees them on the site (the team's internal notes are not theirs).
  const tickets = await database
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(supportTickets.createdAt);
  const threads = await Promise.all(
    tickets.map((ticket) => threadOf(database, ticket.id, { withNotes: false })),
  );
  return {
    exportedAt: new Date().toISOString(),
    profile: {
      id: profile.id,
      name: profile.name,
      email: profile.email,
      emailVerified: profile.emailVerified,
      role: profile.role,
      createdAt: profile.createdAt,
    },
    signInMethods: logins.map((login) => ({
      provider: login.providerId,
      createdAt: login.createdAt,
    })),
    browserSessions: browserSessions.map((entry) => ({
      createdAt: entry.createdAt,
      expiresAt: entry.expiresAt,
      ipAddress: entry.ipAddress,
      userAgent: entry.userAgent,
    })),
    desktopDevices: devices.map((device) => ({
      name: device.name,
      platform: device.platform,
      appVersion: device.appVersion,
      createdAt: device.createdAt,
      lastSeenAt: device.lastSeenAt,
      revokedAt: device.revokedAt,
    })),
    usage: usage.map((event) => ({
      feature: event.feature,
      count: event.count,
      at: event.occurredAt,
      appVersion: event.appVersion,
    })),
    feedback: messages.map((message) => ({
      category: message.category,
      message: message.message,
      createdAt: message.createdAt,
    })),
    supportTickets: tickets.map((ticket, index) => ({
      number: ticket.number,
      category: ticket.category,
      subject: ticket.subject,
      status: ticket.status,
      createdAt: ticket.createdAt,
      closedAt: ticket.closedAt,
      messages: (threads[index] ?? []).map((message) => ({
        from: message.side === "customer" ? "you" : message.authorName,
        body: message.body,
        at: message.createdAt,
      })),
    })),
  };
}

export async function isTwoFactorEnabled(userId: string): Promise<boolean> {
  const [row] = await db()
    .select({ on: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(row?.on);
}

export async function updateName(request: Request, name: string): Promise<Outcome> {
  try {
    await auth().api.updateUser({ headers: request.headers, body: { name } });
    return { ok: true, message: "Your name was saved." };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}
