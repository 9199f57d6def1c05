import { isSilent, silentBefore, slotsInUse } from "./check-ins.server";
import { releaseMachineLeases } from "../teams/floating-seats.server";
import { and, desc, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { entitlementFor } from "../billing/entitlement.server";
import { type Database, db as defaultDb, type Executor } from "../db";
import {
  desktopDevices,
  desktopRefreshTokens,
  desktopUsageEvents,
  session as sessions,
  user as users,
} from "../db/schema";
import { logger } from "../logger";
import { kickJobs } from "../jobs/kick";
import { queueMail } from "../mail/outbox.server";
import { newDesktopSignInMessage } from "../mail/templates";
import { machineKey } from "../security/person-keys.server";
import { checkTrialMachine, runningTrialOf } from "../trials/trials.server";
import { hashToken, randomToken, verifyPkce } from "../security/tokens";
import { burnToken } from "./handoff.server";

export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_TOKEN_SECONDS = 60 * 24 * 60 * 60;

/** OAuth-style errors of the desktop API (RFC 6749 §5.2 names where they apply). */
export class DesktopAuthError extends Error {
  override name = "DesktopAuthError";
  constructor(
    readonly code: "invalid_grant" | "invalid_request" | "device_limit_reached" | "invalid_token",
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const tokenRequestSchema = z.object({
  token: z.string().min(1).max(200),
  code_verifier: z.string().min(1).max(200),
  device_name: z.string().trim().min(1).max(100),
  platform: z.enum(["mac", "windows"]),
  app_version: z.string().trim().min(1).max(50),
  /**
   * A stable identifier of the computer (the OS's machine id or one the app keeps), for one free
   * trial per computer. Only its keyed hash is stored. Optional: older apps send none.
   */
  machine_id: z.string().trim().min(8).max(200).optional(),
});

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  expires_in: number;
}

function newPair() {
  const access = randomToken();
  const refresh = randomToken();
  return {
    access,
    refresh,
    accessExpiresAt: new Date(Date.now() + ACCESS_TOKEN_SECONDS * 1000),
    refreshExpiresAt: new Date(Date.now() + REFRESH_TOKEN_SECONDS * 1000),
    pair: {
      access_token: access,
      refresh_token: refresh,
      token_type: "Bearer" as const,
      expires_in: ACCESS_TOKEN_SECONDS,
    },
  };
}

/**
 * Exchanges a handoff token and its PKCE verifier for a device session. The token is burnt by the
 * first attempt, valid or not.
 */
export async function exchangeHandoff(
  input: z.infer<typeof tokenRequestSchema>,
  database: Database = defaultDb(),
) {
  const burnt = await burnToken(input.token, "desktop_handoff", database);
  if (!burnt.ok)
    throw new DesktopAuthError("invalid_grant", 400, `the sign-in token is ${burnt.reason}`);
  if (!verifyPkce(input.code_verifier, burnt.payload.codeChallenge)) {
    throw new DesktopAuthError(
      "invalid_grant",
      400,
      "code_verifier does not match the code_challenge",
    );
  }
  const [account] = await database.select().from(users).where(eq(users.id, burnt.userId));
  if (!account || account.banned)
    throw new DesktopAuthError("invalid_grant", 400, "the account cannot sign in");

  const entitlement = await entitlementFor(account.id);
  const tokens = newPair();
  const device = await database.transaction(async (tx) => {
    // Two exchanges for one user must not both pass the count (PostgreSQL runs them at once):
    // the user row is locked first, so the second waits and then counts the first one's device.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, account.id)).for("update");
    // A machine silent past the window holds no slot; a licence file not expired holds one
    // (issue 57): the one count of slots in use.
    if ((await slotsInUse(tx, account.id)) >= entitlement.device_limit) {
      throw new DesktopAuthError(
        "device_limit_reached",
        403,
        `your plan allows ${entitlement.device_limit} signed-in device(s): sign one out at /account/security`,
      );
    }
    const [created] = await tx
      .insert(desktopDevices)
      .values({
        userId: account.id,
        name: input.device_name,
        platform: input.platform,
        appVersion: input.app_version,
        accessTokenHash: hashToken(tokens.access),
        accessExpiresAt: tokens.accessExpiresAt,
        machineKey: input.machine_id ? machineKey(input.machine_id) : null,
      })
      .returning();
    if (!created) throw new Error("device not created");
    // A computer signed in during a free trial has had that trial (issue 36, point 2), unless it
    // had another account's first: then this trial ends (issue 53, finding 10).
    const trial = created.machineKey ? await runningTrialOf(account.id, tx) : null;
    if (trial && created.machineKey) await checkTrialMachine(tx, trial, created.machineKey);
    await tx.insert(desktopRefreshTokens).values({
      tokenHash: hashToken(tokens.refresh),
      deviceId: created.id,
      expiresAt: tokens.refreshExpiresAt,
    });
    return created;
  });

  // The mail lane sends it: the app gets its tokens at once whatever the mail server does.
  await queueMail(
    database,
    newDesktopSignInMessage({
      to: account.email,
      name: account.name,
      device: device.name,
      when: device.createdAt,
    }),
    `desktop-sign-in:${device.id}`,
  );
  kickJobs();
  return { ...tokens.pair, user: { id: account.id, email: account.email, name: account.name } };
}

/** Rotates the pair. A refresh token used twice means it leaked: the device is signed out. */
export async function refreshDevice(
  refreshToken: string,
  database: Database = defaultDb(),
): Promise<TokenPair> {
  const tokenHash = hashToken(refreshToken);
  const [row] = await database
    .select()
    .from(desktopRefreshTokens)
    .where(eq(desktopRefreshTokens.tokenHash, tokenHash));
  if (!row) throw new DesktopAuthError("invalid_grant", 400, "unknown refresh token");
  if (row.usedAt) {
    await revokeDevice(row.deviceId, null, database);
    logger().warn({ deviceId: row.deviceId }, "refresh token reused: device revoked");
    throw new DesktopAuthError(
      "invalid_grant",
      400,
      "refresh token already used: the device has been signed out",
    );
  }
  if (row.expiresAt.getTime() <= Date.now())
    throw new DesktopAuthError("invalid_grant", 400, "refresh token expired");
  const tokens = newPair();
  const outcome = await database.transaction(async (tx) => {
    const [used] = await tx
      .update(desktopRefreshTokens)
      .set({ usedAt: new Date() })
      .where(
        and(eq(desktopRefreshTokens.tokenHash, tokenHash), isNull(desktopRefreshTokens.usedAt)),
      )
      .returning();
    // Another request used it between our read and this update: a reuse like any other.
    if (!used) return "reused" as const;
    const [device] = await tx
      .update(desktopDevices)
      .set({
        accessTokenHash: hashToken(tokens.access),
        accessExpiresAt: tokens.accessExpiresAt,
        // A dead machine's refresh does not revive it: only a check-in does, while a slot is
        // free (issue 57). A living one is seen now.
        lastSeenAt: sql`case when ${desktopDevices.lastSeenAt} >= ${silentBefore().toISOString()}::timestamptz then now() else ${desktopDevices.lastSeenAt} end`,
      })
      .where(and(eq(desktopDevices.id, row.deviceId), isNull(desktopDevices.revokedAt)))
      .returning();
    if (!device) throw new DesktopAuthError("invalid_grant", 400, "the device was signed out");
    await tx.insert(desktopRefreshTokens).values({
      tokenHash: hashToken(tokens.refresh),
      deviceId: device.id,
      expiresAt: tokens.refreshExpiresAt,
    });
    return "rotated" as const;
  });
  if (outcome === "reused") {
    await revokeDevice(row.deviceId, null, database);
    logger().warn({ deviceId: row.deviceId }, "refresh token reused concurrently: device revoked");
    throw new DesktopAuthError(
      "invalid_grant",
      400,
      "refresh token already used: the device has been signed out",
    );
  }
  return tokens.pair;
}

/** The access token of an `Authorization: Bearer …` header, or null when it holds none. */
export function bearerToken(authorization: string | null): string | null {
  return /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(authorization ?? "")?.[1] ?? null;
}

/** The device and user behind a Bearer access token, or null (unknown, expired, revoked). */
export async function authenticateDevice(
  authorization: string | null,
  database: Database = defaultDb(),
) {
  const token = bearerToken(authorization);
  if (!token) return null;
  const [row] = await database
    .select({ device: desktopDevices, user: users })
    .from(desktopDevices)
    .innerJoin(users, eq(users.id, desktopDevices.userId))
    .where(
      and(
        eq(desktopDevices.accessTokenHash, hashToken(token)),
        isNull(desktopDevices.revokedAt),
        gt(desktopDevices.accessExpiresAt, new Date()),
      ),
    );
  if (!row || row.user.banned) return null;
  // lastSeenAt at minute resolution is enough, and saves a write on every call. A dead machine
  // is not revived by any call: only by a check-in while a slot is free (issue 57).
  if (Date.now() - row.device.lastSeenAt.getTime() > 60_000 && !isSilent(row.device.lastSeenAt)) {
    await database
      .update(desktopDevices)
      .set({ lastSeenAt: new Date() })
      .where(eq(desktopDevices.id, row.device.id));
  }
  return row;
}

/**
 * Signs a device out: its access and refresh tokens stop working at once, and so do the browser
 * sessions it opened (app → web), which would otherwise outlive it; a floating seat it held is
 * free for another machine.
 */
export async function revokeDevice(
  deviceId: string,
  userId: string | null,
  database: Executor = defaultDb(),
) {
  const owner = userId ? eq(desktopDevices.userId, userId) : sql`true`;
  const rows = await database
    .update(desktopDevices)
    .set({ revokedAt: new Date() })
    .where(and(eq(desktopDevices.id, deviceId), owner, isNull(desktopDevices.revokedAt)))
    .returning({ id: desktopDevices.id });
  await endSessionsOpenedBy(
    rows.map((row) => row.id),
    database,
  );
  return rows.length > 0;
}

/**
 * Signs out every desktop device of a user (after a password reset or change), except the one
 * the change was made from, if any. Returns how many were signed out.
 */
export async function revokeAllDevices(
  userId: string,
  exceptDeviceId: string | null = null,
  database: Executor = defaultDb(),
): Promise<number> {
  const rows = await database
    .update(desktopDevices)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(desktopDevices.userId, userId),
        isNull(desktopDevices.revokedAt),
        exceptDeviceId ? ne(desktopDevices.id, exceptDeviceId) : undefined,
      ),
    )
    .returning({ id: desktopDevices.id });
  await endSessionsOpenedBy(
    rows.map((row) => row.id),
    database,
  );
  return rows.length;
}

async function endSessionsOpenedBy(deviceIds: string[], database: Executor): Promise<void> {
  if (deviceIds.length === 0) return;
  await database.delete(sessions).where(inArray(sessions.desktopDeviceId, deviceIds));
  // A signed-out machine gives back a team's floating seat at once (issue 57).
  await releaseMachineLeases(deviceIds, "signed-out", database);
}

export async function listDevices(userId: string, database: Database = defaultDb()) {
  return database
    .select()
    .from(desktopDevices)
    .where(and(eq(desktopDevices.userId, userId), isNull(desktopDevices.revokedAt)))
    .orderBy(desc(desktopDevices.lastSeenAt));
}

export const usageSchema = z.object({
  events: z
    .array(
      z.object({
        id: z.string().min(1).max(100),
        feature: z
          .string()
          .regex(/^[a-z0-9_.-]{1,64}$/, { error: "feature: lowercase letters, digits, _ . -" }),
        count: z.number().int().min(1).max(1_000_000),
        at: z.iso.datetime({ offset: true }),
      }),
    )
    .min(1)
    .max(500),
});

/** Stores usage reports; an event id seen before from this device is ignored (retries are safe). */
export async function recordUsage(
  device: { id: string; userId: string; appVersion: string },
  input: z.infer<typeof usageSchema>,
  database: Database = defaultDb(),
): Promise<number> {
  const rows = await database
    .insert(desktopUsageEvents)
    .values(
      input.events.map((event) => ({
        deviceId: device.id,
        eventId: event.id,
        userId: device.userId,
        feature: event.feature,
        count: event.count,
        occurredAt: new Date(event.at),
        appVersion: device.appVersion,
      })),
    )
    .onConflictDoNothing()
    .returning({ eventId: desktopUsageEvents.eventId });
  return rows.length;
}

/** The version an app reports on each check-in: the admin's "active versions" reads it. */
export async function recordAppVersion(
  deviceId: string,
  appVersion: string,
  database: Database = defaultDb(),
): Promise<void> {
  await database
    .update(desktopDevices)
    .set({ appVersion })
    .where(
      and(eq(desktopDevices.id, deviceId), sql`${desktopDevices.appVersion} <> ${appVersion}`),
    );
}
