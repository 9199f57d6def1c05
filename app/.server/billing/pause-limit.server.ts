/**
 * Pause and resume each ask Razorpay (issue 53): without a limit one account's clicks spend the
 * site's provider quota and fill the mail log. Counted per account, pause and resume together,
 * in the database so every instance shares the count.
 */
import { type Database, db as defaultDb } from "../db";
import { hitRateLimit } from "../security/rate-limit.server";

/** Pause or resume presses per account: a few changes of mind, not a loop. */
export const PAUSE_RESUME_LIMIT = { max: 6, windowSeconds: 60 * 60 } as const;

/** Counts one pause or resume; the message to show when the account has pressed too often. */
export async function pauseResumeRefusal(
  userId: string,
  database: Database = defaultDb(),
): Promise<string | null> {
  const limit = await hitRateLimit(
    `pause-resume:${userId}`,
    PAUSE_RESUME_LIMIT.max,
    PAUSE_RESUME_LIMIT.windowSeconds,
    database,
  );
  if (limit.allowed) return null;
  const minutes = Math.max(1, Math.ceil(limit.retryAfter / 60));
  return `You paused or resumed many times in a short while. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
