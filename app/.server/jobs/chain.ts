/**
 * Chained jobs: a job that schedules its own next run (the hourly prune and roll-up, the alerts'
 * sweep and digest). Each carries the moment it was scheduled for, and the next run is the slot
 * after the later of that and now: a job run early (another instance's clock is behind, or a
 * test moves it) would otherwise schedule its own slot again, whose dedupe key is taken, and the
 * chain would stop until the next start-up.
 */
import { z } from "zod";

/** The payload of a chained job: its moment (absent in jobs queued before it was carried). */
export const chainPayload = z.object({ at: z.iso.datetime().optional() });

/** Now, or the job's own moment if it ran before it. */
export function afterOwnSlot(at: string | undefined, now = new Date()): Date {
  return at ? new Date(Math.max(now.getTime(), Date.parse(at))) : now;
}

/** The start of the next `everyMs` slot after `after` (slots count from the Unix epoch). */
export function nextSlot(after: Date, everyMs: number): Date {
  return new Date(Math.floor(after.getTime() / everyMs) * everyMs + everyMs);
}
