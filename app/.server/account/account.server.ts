import { desc, eq } from "drizzle-orm";
import { auth } from "../auth/auth.server";
import { db } from "../db";
import {
  account as accounts,
  desktopDevices,
  desktopUsageEvents,
  feedback,
  session as sessions,
  user as users,
} from "../db/schema";
import { sendMail } from "../mail/mailer";
import { passwordChangedMessage } from "../mail/templates";

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

export interface BrowserSession {
  id: string;
  createdAt: string;
  updatedAt: string;
  userAgent: string | null;
  ipAddress: string | null;
  current: boolean;
}

/** The browser sessions of the signed-in user (tokens never leave the server). */
export async function listBrowserSessions(
  request: Request,
  currentSessionId: string,
): Promise<BrowserSession[]> {
  const list = await auth().api.listSessions({ headers: request.headers });
  return list
    .map((entry) => ({
      id: entry.id,
      createdAt: new Date(entry.createdAt).toISOString(),
      updatedAt: new Date(entry.updatedAt).toISOString(),
      userAgent: entry.userAgent ?? null,
      ipAddress: entry.ipAddress ?? null,
      current: entry.id === currentSessionId,
    }))
    .sort((a, b) => (a.current ? -1 : b.current ? 1 : b.updatedAt.localeCompare(a.updatedAt)));
}

export async function revokeBrowserSession(request: Request, sessionId: string): Promise<Outcome> {
  const list = await auth().api.listSessions({ headers: request.headers });
  const target = list.find((entry) => entry.id === sessionId);
  if (!target) return { ok: false, message: "That session has already ended." };
  await auth().api.revokeSession({ headers: request.headers, body: { token: target.token } });
  return { ok: true, message: "The session was signed out." };
}

export async function revokeOtherBrowserSessions(request: Request): Promise<Outcome> {
  await auth().api.revokeOtherSessions({ headers: request.headers });
  return { ok: true, message: "Every other browser session was signed out." };
}

/**
 * Changes the password and signs out every other session. Better Auth gives this browser a new
 * session: the returned headers carry its cookie and must reach the browser.
 */
export async function changePassword(
  request: Request,
  input: { currentPassword: string; newPassword: string; email: string; name: string },
): Promise<Outcome & { headers: Headers }> {
  const headers = new Headers();
  const response = await auth().api.changePassword({
    headers: request.headers,
    body: {
      currentPassword: input.currentPassword,
      newPassword: input.newPassword,
      revokeOtherSessions: true,
    },
    asResponse: true,
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    const message =
      body.message === "Invalid password"
        ? "The current password is not right."
        : (body.message ?? "Could not change the password.");
    return { ok: false, message, headers };
  }
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  await sendMail(passwordChangedMessage({ to: input.email, name: input.name }));
  return {
    ok: true,
    message: "Your password was changed, and your other browser sessions were signed out.",
    headers,
  };
}

/**
 * Deletes the account after checking the password; Better Auth's hooks erase the rest. On success
 * the headers clear the session cookies (the cached session included).
 */
export async function deleteAccount(
  request: Request,
  password: string,
): Promise<{ ok: true; message: string; headers: Headers } | { ok: false; message: string }> {
  try {
    const response = await auth().api.deleteUser({
      headers: request.headers,
      body: { password },
      asResponse: true,
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      return {
        ok: false,
        message:
          body.message === "Invalid password"
            ? "The password is not right."
            : (body.message ?? "Could not delete the account."),
      };
    }
    const headers = new Headers();
    for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    return { ok: true, message: "Your account was deleted.", headers };
  } catch (error) {
    return {
      ok: false,
      message:
        messageOf(error) === "Invalid password" ? "The password is not right." : messageOf(error),
    };
  }
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

/** Sends a verification link to the new address; the email changes when it is opened. */
export async function requestEmailChange(request: Request, newEmail: string): Promise<Outcome> {
  try {
    await auth().api.changeEmail({
      headers: request.headers,
      body: { newEmail, callbackURL: "/account/profile?email=changed" },
    });
    return {
      ok: true,
      message: `We sent a link to ${newEmail}. Your email changes when you open it.`,
    };
  } catch (error) {
    const message = messageOf(error);
    return {
      ok: false,
      message: /exist/i.test(message) ? "Another account already uses that email." : message,
    };
  }
}
