/**
 * The record of what the site mailed (issue 33, point 5): `sendMail` notes each try here, and
 * the operator's customer page lists a customer's mails with their subject, time and state.
 * Subjects only, never bodies (a body can hold a sign-in or reset link).
 */
import { randomUUID } from "node:crypto";
import { desc, eq, lt, sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { mailLog } from "../db/schema";
import { logger } from "../logger";

/** How long a mail's record is kept (content/legal/privacy.md). */
export const MAIL_LOG_RETENTION_MONTHS = 12;

/** `"Asha" <asha@example.com>` or `asha@example.com` → `asha@example.com`. */
export function mailAddressOf(to: string): string {
  const angle = /<([^>]+)>/.exec(to);
  return (angle?.[1] ?? to).trim().toLowerCase();
}

export interface MailAttempt {
  /** The same for every try of one mail (the job's idempotency key); none: a row of its own. */
  key?: string;
  to: string;
  subject: string;
  error?: string;
}

/**
 * Notes one try of a mail: sent, or failed with its error. Never throws: the mail has already
 * left (or failed) whatever the record does, and a retry must not send it again for a record.
 */
export async function recordMailAttempt(attempt: MailAttempt, database?: Database): Promise<void> {
  const status = attempt.error === undefined ? "sent" : "failed";
  const lastError = attempt.error === undefined ? null : attempt.error.slice(0, 500);
  try {
    await (database ?? defaultDb())
      .insert(mailLog)
      .values({
        key: attempt.key ?? randomUUID(),
        recipient: mailAddressOf(attempt.to),
        subject: attempt.subject.slice(0, 500),
        status,
        lastError,
      })
      .onConflictDoUpdate({
        target: mailLog.key,
        set: {
          status,
          lastError,
          attempts: sql`${mailLog.attempts} + 1`,
          lastAttemptAt: sql`now()`,
        },
      });
  } catch (error) {
    logger().warn({ err: error, mail: { subject: attempt.subject } }, "mail log not written");
  }
}

export interface MailRecord {
  key: string;
  subject: string;
  status: "sent" | "failed";
  attempts: number;
  lastError: string | null;
  firstAttemptAt: Date;
  lastAttemptAt: Date;
}

/** The newest mails to one address, newest first. */
export async function mailsTo(
  address: string,
  database: Database = defaultDb(),
  limit = 100,
): Promise<MailRecord[]> {
  return database
    .select({
      key: mailLog.key,
      subject: mailLog.subject,
      status: mailLog.status,
      attempts: mailLog.attempts,
      lastError: mailLog.lastError,
      firstAttemptAt: mailLog.firstAttemptAt,
      lastAttemptAt: mailLog.lastAttemptAt,
    })
    .from(mailLog)
    .where(eq(mailLog.recipient, mailAddressOf(address)))
    .orderBy(desc(mailLog.lastAttemptAt))
    .limit(limit);
}

/** Forgets the mails to an address (the account was deleted). */
export async function forgetMailsTo(address: string, database: Database): Promise<void> {
  await database.delete(mailLog).where(eq(mailLog.recipient, mailAddressOf(address)));
}

/** Deletes records older than the retention period; returns how many. */
export async function pruneMailLog(database: Database, before: Date): Promise<number> {
  const gone = await database
    .delete(mailLog)
    .where(lt(mailLog.lastAttemptAt, before))
    .returning({ key: mailLog.key });
  return gone.length;
}
