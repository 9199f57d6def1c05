import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import { site } from "~/config/site";
import { env } from "../env";
import { jobSignal } from "../jobs/signal";
import { logger } from "../logger";
import { recordMailAttempt } from "./mail-log.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /**
   * Threading (a support ticket's mails): `messageId` names this message (the first of a
   * thread), `inReplyTo` the message it answers, so a mail client shows one conversation. Local
   * parts only: the site's host is added. Without them the Message-ID is the job's key.
   */
  messageId?: string;
  inReplyTo?: string;
}

export interface SendOptions {
  /**
   * The same for every try of one mail (a job's idempotency key): it becomes the Message-ID, so
   * a copy sent again after a crash is the same message to the receiving side.
   */
  idempotencyKey?: string;
}

let transport: Transporter | undefined;

/**
 * SMTP_URL with the time-outs as query options (nodemailer reads a URL's query as transport
 * options, and ignores other options given beside a URL); ones already in the URL are kept.
 */
export function smtpUrlWithTimeouts(config: {
  SMTP_URL?: string;
  SMTP_CONNECTION_TIMEOUT_MS: number;
  SMTP_GREETING_TIMEOUT_MS: number;
  SMTP_SOCKET_TIMEOUT_MS: number;
}): string {
  const url = new URL(config.SMTP_URL ?? "");
  const timeouts = {
    connectionTimeout: config.SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: config.SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: config.SMTP_SOCKET_TIMEOUT_MS,
  };
  for (const [name, ms] of Object.entries(timeouts))
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  return url.toString();
}

/** Nodemailer is loaded with the first mail, not when the site starts (decision 0051). */
async function getTransport(): Promise<Transporter> {
  if (transport) return transport;
  const config = env();
  const { default: nodemailer } = await import("nodemailer");
  // Without SMTP the message is rendered to RFC 822 text and kept in the outbox folder, so the
  // embedded default works end to end (verification and reset links included).
  transport ??= config.SMTP_URL
    ? nodemailer.createTransport(smtpUrlWithTimeouts(config))
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return transport;
}

export function outboxDir(): string {
  return path.join(env().DATA_DIR, "mail");
}

export function fromAddress(): string {
  return env().MAIL_FROM ?? `"${site.product.name}" <${site.company.supportEmail}>`;
}

function messageId(key: string): string {
  const host = new URL(env().SITE_URL).hostname || "localhost";
  return `<${key}@${host}>`;
}

/**
 * Sends one message (or writes it to DATA_DIR/mail/*.eml, with a plain .txt copy, when SMTP_URL is unset). Mail is sent by
 * the job worker only (the mail lane): call it from a job handler, never on a request's path.
 * Bounded by the SMTP time-outs; refuses to start once the running job's signal has aborted.
 */
export async function sendMail(message: MailMessage, options: SendOptions = {}): Promise<void> {
  // Nothing starts after the job was told to stop; a send under way is bounded by the SMTP
  // time-outs, and the worker stops waiting for it at the job's limit.
  jobSignal()?.throwIfAborted();
  const { messageId: ownId, inReplyTo, ...content } = message;
  const id = ownId ?? options.idempotencyKey;
  // Every try is noted for the operator's customer page, under the key all tries share.
  const attempt = {
    key: options.idempotencyKey ?? ownId,
    to: message.to,
    subject: message.subject,
  };
  let info: Awaited<ReturnType<Transporter["sendMail"]>>;
  try {
    info = await (
      await getTransport()
    ).sendMail({
      from: fromAddress(),
      ...content,
      ...(id ? { messageId: messageId(id) } : {}),
      ...(inReplyTo ? { inReplyTo: messageId(inReplyTo), references: [messageId(inReplyTo)] } : {}),
    });
  } catch (error) {
    await recordMailAttempt({ ...attempt, error: errorText(error) });
    throw error;
  }
  const { SMTP_URL, NODE_ENV } = env();
  let file: string | undefined;
  let links: string[] | undefined;
  if (!SMTP_URL) {
    await fs.mkdir(outboxDir(), { recursive: true });
    const name = `${Date.now()}-${randomBytes(4).toString("hex")}`;
    file = path.join(outboxDir(), `${name}.eml`);
    await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
    // The .eml is quoted-printable, which breaks long links across lines: the plain text beside
    // it keeps every link whole, to open by hand (README, "First steps").
    await fs.writeFile(path.join(outboxDir(), `${name}.txt`), plainCopy(message), { mode: 0o600 });
    // A verification or reset link is a secret: printed only while developing, never in a
    // production log.
    if (NODE_ENV === "development") links = linksIn(message.text);
  }
  await recordMailAttempt(attempt);
  logger().info({ mail: { to: message.to, subject: message.subject, file, links } }, "mail sent");
}

/** The mail as plain text: who it is to, its subject, and the text body with its links whole. */
export function plainCopy(message: Pick<MailMessage, "to" | "subject" | "text">): string {
  return `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`;
}

/** Every http(s) link in a text, in order. */
export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((match) => match[0]);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
