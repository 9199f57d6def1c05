/**
 * Mail a request causes (sign-up verification, password reset, a new desktop sign-in, account
 * deleted) is queued here and sent by the mail lane: the request answers at once whatever the
 * mail server does, and a mail server that hangs delays mail, nothing else. The rendered message
 * waits sealed (key-vault): a copy of the database holds no usable reset or verification link.
 */
import { z } from "zod";
import { defineJob, enqueue } from "../jobs/define";
import type { Executor } from "../db";
import { PermanentJobError } from "../jobs/worker.server";
import { openSecret, sealSecret } from "../security/key-vault.server";
import { type MailMessage, sendMail } from "./mailer.server";

const messageSchema = z.object({
  to: z.string().min(3).max(320),
  subject: z.string().min(1).max(500),
  text: z.string(),
  html: z.string(),
  messageId: z.string().optional(),
  inReplyTo: z.string().optional(),
});

export const sendMessageJob = defineJob({
  name: "mail.message",
  lane: "mail",
  payload: z.object({ sealed: z.unknown().refine((value) => value !== undefined) }),
  timeoutMs: 60_000,
  maxAttempts: 12,
  async handler({ sealed }, { idempotencyKey }) {
    let message: MailMessage;
    try {
      message = messageSchema.parse(JSON.parse(openSecret(sealed)));
    } catch {
      // Sealed under another key (KEYS_ENCRYPTION_SECRET changed) or damaged: retrying cannot help.
      throw new PermanentJobError("queued mail cannot be opened");
    }
    await sendMail(message, { idempotencyKey });
  },
});

/**
 * Queues a message (without attachments) for the mail lane. `dedupeKey`: the same event queued
 * twice is mailed once.
 */
export async function queueMail(
  executor: Executor,
  message: MailMessage,
  dedupeKey?: string,
): Promise<void> {
  const { to, subject, text, html, messageId, inReplyTo } = message;
  await enqueue(
    executor,
    sendMessageJob,
    { sealed: sealSecret(JSON.stringify({ to, subject, text, html, messageId, inReplyTo })) },
    { dedupeKey },
  );
}
