/**
 * Where the account is signed in (browsers and desktop devices) and the intents of the security
 * page that sign them out. Signing out is sensitive: a stolen session must not lock the owner out.
 */
import { isSilent } from "../desktop/check-ins.server";
import { z } from "zod";
import { auth } from "../auth/auth.server";
import type { Session } from "../auth/session";
import { listDevices, revokeDevice } from "../desktop/devices.server";
import { done, refuse } from "../forms/action.server";
import { passSensitiveGate } from "./step-up.server";

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

export interface DesktopDeviceView {
  id: string;
  name: string;
  platform: string;
  appVersion: string;
  lastSeenAt: string;
  /** Silent past the window (issue 57): its slot no longer counts against the plan's limit. */
  silent: boolean;
}

export async function listDesktopDevices(userId: string): Promise<DesktopDeviceView[]> {
  const devices = await listDevices(userId);
  const now = new Date();
  return devices.map((device) => ({
    silent: isSilent(device.lastSeenAt, now),
    id: device.id,
    name: device.name,
    platform: device.platform,
    appVersion: device.appVersion,
    lastSeenAt: device.lastSeenAt.toISOString(),
  }));
}

export const revokeDeviceSchema = z.object({
  intent: z.literal("revoke-device"),
  deviceId: z.uuid(),
});

export const revokeSessionSchema = z.object({
  intent: z.literal("revoke-session"),
  sessionId: z.string().min(1).max(200),
});

export const revokeOtherSessionsSchema = z.object({ intent: z.literal("revoke-other-sessions") });

export async function signOutDevice(session: Session, input: z.output<typeof revokeDeviceSchema>) {
  const gate = await passSensitiveGate(input.intent, session);
  if (!gate.ok) return gate.refusal;
  const revoked = await revokeDevice(input.deviceId, session.user.id);
  return revoked
    ? done(input.intent, "The device was signed out. It must sign in again to work online.")
    : refuse(input.intent, "That device was already signed out.", 200);
}

export async function signOutBrowser(
  request: Request,
  session: Session,
  input: z.output<typeof revokeSessionSchema>,
) {
  if (input.sessionId === session.id) return refuse(input.intent, "Use Sign out for this browser.");
  const gate = await passSensitiveGate(input.intent, session);
  if (!gate.ok) return gate.refusal;
  const list = await auth().api.listSessions({ headers: request.headers });
  const target = list.find((entry) => entry.id === input.sessionId);
  if (!target) return refuse(input.intent, "That session has already ended.", 200);
  await auth().api.revokeSession({ headers: request.headers, body: { token: target.token } });
  return done(input.intent, "The session was signed out.");
}

export async function signOutOtherBrowsers(
  request: Request,
  session: Session,
  input: z.output<typeof revokeOtherSessionsSchema>,
) {
  const gate = await passSensitiveGate(input.intent, session);
  if (!gate.ok) return gate.refusal;
  await auth().api.revokeOtherSessions({ headers: request.headers });
  return done(input.intent, "Every other browser session was signed out.");
}
