import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { site } from "~/config/site";
import { env } from "../env";
import { logger } from "../logger";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

let transport: Transporter | undefined;

function getTransport(): Transporter {
  const { SMTP_URL } = env();
  // Without SMTP the message is rendered to RFC 822 text and kept in the outbox folder, so the
  // embedded default works end to end (verification and reset links included).
  transport ??= SMTP_URL
    ? nodemailer.createTransport(SMTP_URL)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return transport;
}

export function outboxDir(): string {
  return path.join(env().DATA_DIR, "mail");
}

export function fromAddress(): string {
  return env().MAIL_FROM ?? `"${site.product.name}" <${site.company.supportEmail}>`;
}

/** Sends one message (or writes it to DATA_DIR/mail/*.eml when SMTP_URL is unset). */
export async function sendMail(message: MailMessage): Promise<void> {
  const info = await getTransport().sendMail({ from: fromAddress(), ...message });
  const { SMTP_URL } = env();
  let file: string | undefined;
  if (!SMTP_URL) {
    await fs.mkdir(outboxDir(), { recursive: true });
    file = path.join(outboxDir(), `${Date.now()}-${randomBytes(4).toString("hex")}.eml`);
    await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
  }
  logger().info({ mail: { to: message.to, subject: message.subject, file } }, "mail sent");
}
