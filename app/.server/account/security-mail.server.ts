/**
 * Security mail goes through the job queue: a failing mail server never turns a password change
 * into an error page (or loses the new session cookie), and the worker retries until it is sent.
 * A link waits in the queue sealed (key-vault), so a copy of the database holds no usable link.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { type Database, db as defaultDb, type Executor } from "../db";
import { user as users } from "../db/schema";
import { defineJob, enqueue } from "../jobs/define";
import { PermanentJobError } from "../jobs/worker.server";
import { type MailMessage, type SendOptions, sendMail as sendMailNow } from "../mail/mailer.server";
import {
  confirmAccountDeletionMessage,
  confirmEmailChangeMessage,
  passwordChangedMessage,
  wrongSecondStepCodesMessage,
} from "../mail/templates";
import { openSecret, sealSecret } from "../security/key-vault.server";

export const ACCOUNT_MAIL_JOB = "mail.account";

/**
 * `dedupe` names the event: queueing the same event twice mails once. The recipient is the
 * account's address when the mail is sent; a link mail also names the address it was meant for,
 * and is dropped if the account has moved on since.
 */
export type AccountMail =
  | { template: "password-changed"; userId: string; dedupe: string }
  | { template: "wrong-second-step-codes"; userId: string; dedupe: string }
  | {
      template: "confirm-email-change";
      userId: string;
      dedupe: string;
      to: string;
      newEmail: string;
      url: string;
    }
  | { template: "confirm-deletion"; userId: string; dedupe: string; to: string; url: string };

export async function queueAccountMail(executor: Executor, mail: AccountMail): Promise<void> {
  const { template, userId, dedupe } = mail;
  const secret =
    mail.template === "password-changed" || mail.template === "wrong-second-step-codes"
      ? undefined
      : sealSecret(
          JSON.stringify(
            mail.template === "confirm-email-change"
              ? { to: mail.to, url: mail.url, newEmail: mail.newEmail }
              : { to: mail.to, url: mail.url },
          ),
        );
  await enqueue(
    executor,
    accountMailJob,
    { template, userId, ...(secret ? { sealed: secret } : {}) },
    { dedupeKey: `${ACCOUNT_MAIL_JOB}:${template}:${userId}:${dedupe}` },
  );
}

const payloadSchema = z.object({
  template: z.enum([
    "password-changed",
    "wrong-second-step-codes",
    "confirm-email-change",
    "confirm-deletion",
  ]),
  userId: z.string().min(1),
  sealed: z.unknown().optional(),
});

const linkSchema = z.object({ to: z.string(), url: z.url(), newEmail: z.string().optional() });

function openLink(sealed: unknown) {
  try {
    return linkSchema.parse(JSON.parse(openSecret(sealed)));
  } catch {
    // Sealed under another key (KEYS_ENCRYPTION_SECRET changed) or damaged: retrying cannot help.
    throw new PermanentJobError("account mail link cannot be opened");
  }
}

/** The job handler: renders the message for the account as it is now, and sends it. */
export async function sendAccountMail(
  job: z.output<typeof payloadSchema>,
  database: Database = defaultDb(),
  options: SendOptions = {},
): Promise<void> {
  const sendMail = (message: MailMessage) => sendMailNow(message, options);
  const [account] = await database
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, job.userId));
  // The account was deleted since: there is nobody to write to.
  if (!account) return;
  const to = { to: account.email, name: account.name };

  if (job.template === "password-changed") return sendMail(passwordChangedMessage(to));
  if (job.template === "wrong-second-step-codes") return sendMail(wrongSecondStepCodesMessage(to));

  const link = openLink(job.sealed);
  // The address changed since the link was made: the link no longer works, so it is not sent.
  if (link.to.toLowerCase() !== account.email.toLowerCase()) return;
  if (job.template === "confirm-deletion")
    return sendMail(confirmAccountDeletionMessage({ ...to, url: link.url }));
  if (!link.newEmail) throw new PermanentJobError("email change mail without the new address");
  return sendMail(confirmEmailChangeMessage({ ...to, newEmail: link.newEmail, url: link.url }));
}

/** Security mail of an account (mail lane). */
export const accountMailJob = defineJob({
  name: ACCOUNT_MAIL_JOB,
  lane: "mail",
  payload: payloadSchema,
  timeoutMs: 60_000,
  maxAttempts: 12,
  async handler(payload, { idempotencyKey }) {
    await sendAccountMail(payload, defaultDb(), { idempotencyKey });
  },
});
