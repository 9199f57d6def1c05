/**
 * Heartbeats (issue 57, point 1): the rule of a machine's silence, defined once. An app checks in
 * every DEVICE_CHECK_IN_HOURS; one silent for DEVICE_SILENT_DAYS is dead: its device slot no
 * longer counts against the plan's limit (another machine may sign in), and it comes back only
 * through a check-in while a slot is free (`desktopMe`'s rank rule). Nothing is deleted: the
 * customer sees when it was last seen and why its slot was freed.
 */
import { and, count, eq, gt, gte, isNull } from "drizzle-orm";
import type { Database } from "../db";
import { desktopDevices, offlineLicences } from "../db/schema";
import { env } from "../env";

const HOUR_MS = 3_600_000;

/** What a check-in tells the app: how often to check in, and when it would be called dead. */
export function checkInPolicy(): { interval_seconds: number; silent_after_seconds: number } {
  const config = env();
  return {
    interval_seconds: config.DEVICE_CHECK_IN_HOURS * 3600,
    silent_after_seconds: config.DEVICE_SILENT_DAYS * 86_400,
  };
}

/** Machines last seen before this moment are dead at `now`. */
export function silentBefore(now: Date = new Date()): Date {
  return new Date(now.getTime() - env().DEVICE_SILENT_DAYS * 24 * HOUR_MS);
}

export function isSilent(lastSeenAt: Date, now: Date = new Date()): boolean {
  return lastSeenAt.getTime() < silentBefore(now).getTime();
}

/**
 * The plan's device slots in use, counted once for every decision that needs it (a sign-in, a
 * licence file): machines signed in and not silent, and licence files not expired (issue 57).
 */
export async function slotsInUse(
  database: Pick<Database, "select">,
  userId: string,
  now: Date = new Date(),
): Promise<number> {
  const [devices] = await database
    .select({ value: count() })
    .from(desktopDevices)
    .where(
      and(
        eq(desktopDevices.userId, userId),
        isNull(desktopDevices.revokedAt),
        gte(desktopDevices.lastSeenAt, silentBefore(now)),
      ),
    );
  const [files] = await database
    .select({ value: count() })
    .from(offlineLicences)
    .where(
      and(
        eq(offlineLicences.userId, userId),
        gt(offlineLicences.expiresAt, now),
        // A team's file holds one of its floating seats, not its maker's slot.
        isNull(offlineLicences.organizationId),
      ),
    );
  return Number(devices?.value ?? 0) + Number(files?.value ?? 0);
}
