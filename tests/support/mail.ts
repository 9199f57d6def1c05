import fs from "node:fs";
import path from "node:path";

/** Decodes a quoted-printable body (soft line breaks and =XX escapes). */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) in a header value. */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text
              .replace(/_/g, " ")
              .replace(/=([0-9A-F]{2})/gi, (__, hex: string) =>
                String.fromCharCode(parseInt(hex, 16)),
              ),
            "latin1",
          ).toString("utf8"),
    );
}

export interface OutboxMessage {
  file: string;
  to: string;
  subject: string;
  /** The Message-ID and In-Reply-To headers ("" when absent): how clients thread mail. */
  messageId: string;
  inReplyTo: string;
  text: string;
}

/** The messages the server wrote to DATA_DIR/mail, oldest first. */
export function readOutbox(dataDir: string): OutboxMessage[] {
  const dir = path.join(dataDir, "mail");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .map((name) => {
      const raw = fs.readFileSync(path.join(dir, name), "utf8");
      // Long headers are folded onto indented lines: unfold before reading one.
      const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, " ") ?? "";
      const header = (key: string) =>
        decodeHeader(new RegExp(`^${key}: (.*)$`, "mi").exec(head)?.[1]?.trim() ?? "");
      return {
        file: name,
        to: header("To"),
        subject: header("Subject"),
        messageId: header("Message-ID"),
        inReplyTo: header("In-Reply-To"),
        text: decodeQuotedPrintable(raw),
      };
    });
}

function linkIn(messages: OutboxMessage[], contains: string): string | undefined {
  for (const message of messages) {
    const match = message.text
      .match(/https?:\/\/[^\s"<>]+/g)
      ?.find((url) => url.includes(contains));
    if (match) return match.replace(/&amp;/g, "&");
  }
  return undefined;
}

/** Waits without blocking: the site may run in this very process and must go on sending. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The first link in the newest message to an address whose URL contains `contains`. Mail is sent
 * by the server's job worker a moment after the request that caused it answered: this waits (up
 * to 15 s) for such a message, and until no newer message to that address has arrived for a
 * quarter of a second, so a link sent just now is not mistaken for an older one.
 */
export async function linkFromMail(dataDir: string, to: string, contains: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  const toAddress = () =>
    readOutbox(dataDir)
      .filter((message) => message.to.includes(to))
      .reverse();
  let seen = -1;
  while (Date.now() < deadline) {
    const messages = toAddress();
    const link = linkIn(messages, contains);
    if (link && messages.length === seen) return link;
    seen = link ? messages.length : -1;
    await pause(250);
  }
  const link = linkIn(toAddress(), contains);
  if (link) return link;
  throw new Error(`no mail to ${to} with a link containing ${contains}`);
}

/**
 * The outbox once it holds a message that `matches` (mail is sent by the job worker a moment after
 * the request that caused it): every message so far, or a failure after `ms`.
 */
export async function waitForMail(
  dataDir: string,
  matches: (message: OutboxMessage) => boolean,
  ms = 15_000,
): Promise<OutboxMessage[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const outbox = readOutbox(dataDir);
    if (outbox.some(matches)) return outbox;
    if (Date.now() > deadline) throw new Error("timed out waiting for a mail in the outbox");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The link a newcomer opens by hand (README, "First steps"): from the newest plain `.txt` copy of
 * a mail to `to` whose link contains `contains`, waiting up to 15 s for the mail lane to write it.
 */
export async function linkFromPlainMail(
  dataDir: string,
  to: string,
  contains: string,
): Promise<string> {
  const dir = path.join(dataDir, "mail");
  const deadline = Date.now() + 15_000;
  for (;;) {
    const names = fs.existsSync(dir)
      ? fs.readdirSync(dir).filter((name) => name.endsWith(".txt"))
      : [];
    for (const name of names.sort().reverse()) {
      const text = fs.readFileSync(path.join(dir, name), "utf8");
      if (!text.startsWith(`To: ${to}\n`)) continue;
      const link = text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(contains));
      if (link) return link;
    }
    if (Date.now() > deadline)
      throw new Error(`no .txt mail to ${to} with a link containing ${contains}`);
    await pause(250);
  }
}
