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
function decodeHeader(value: string): string {
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
        text: decodeQuotedPrintable(raw),
      };
    });
}

/** The first link in the newest message to an address whose URL contains `contains`. */
export function linkFromMail(dataDir: string, to: string, contains: string): string {
  const messages = readOutbox(dataDir)
    .filter((message) => message.to.includes(to))
    .reverse();
  for (const message of messages) {
    const match = message.text
      .match(/https?:\/\/[^\s"<>]+/g)
      ?.find((url) => url.includes(contains));
    if (match) return match.replace(/&amp;/g, "&");
  }
  throw new Error(`no mail to ${to} with a link containing ${contains}`);
}
