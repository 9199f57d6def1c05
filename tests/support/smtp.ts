/**
 * A fake SMTP server on loopback for tests: it receives messages as a mail relay would (EHLO,
 * MAIL, RCPT, DATA) and records them; `stall()` makes it behave like a broken relay or a firewall
 * that drops packets: it greets new connections, then never answers again. `recover()` answers
 * new connections normally (stalled ones stay stalled until the client gives up).
 */
import net from "node:net";
import { decodeHeader } from "./mail";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  messageId: string;
  raw: string;
}

export interface FakeSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Connections accepted so far (stalled ones included). */
  connections(): number;
  /**
   * Stalled connections that have ended: each is a send attempt the client gave up on (its
   * time-out). While this stays the same, no attempt at the stalled relay has finished.
   */
  stalledEnded(): number;
  stall(): void;
  recover(): void;
  close(): Promise<void>;
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, " ") ?? "";
  return decodeHeader(new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "");
}

export async function startFakeSmtp(
  options: {
    stalled?: boolean;
    /** How long accepting a message takes (a slow relay). */ acceptMs?: number;
  } = {},
): Promise<FakeSmtp> {
  let stalled = options.stalled ?? false;
  let connections = 0;
  let stalledEnded = 0;
  const received: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    const silent = stalled;
    socket.write("220 fake-smtp ESMTP ready\r\n");
    if (silent) {
      socket.on("close", () => stalledEnded++);
      return;
    }
    let buffer = "";
    let inData = false;
    let data = "";
    let from = "";
    let to: string[] = [];
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          const raw = data.replace(/^\.\./gm, ".");
          received.push({
            from,
            to,
            subject: header(raw, "Subject"),
            messageId: header(raw, "Message-ID"),
            raw,
          });
          data = "";
          from = "";
          to = [];
          if (options.acceptMs)
            setTimeout(() => socket.write("250 2.0.0 queued\r\n"), options.acceptMs);
          else socket.write("250 2.0.0 queued\r\n");
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") socket.write("250-fake-smtp\r\n250 8BITMIME\r\n");
        else if (verb === "HELO") socket.write("250 fake-smtp\r\n");
        else if (verb === "MAIL") {
          from = /<([^>]*)>/.exec(line)?.[1] ?? "";
          socket.write("250 2.1.0 ok\r\n");
        } else if (verb === "RCPT") {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          socket.write("250 2.1.5 ok\r\n");
        } else if (verb === "DATA") {
          inData = true;
          data = "";
          socket.write("354 end with <CR><LF>.<CR><LF>\r\n");
        } else if (verb === "RSET" || verb === "NOOP") socket.write("250 ok\r\n");
        else if (verb === "QUIT") {
          socket.end("221 bye\r\n");
          return;
        } else socket.write("502 5.5.2 not implemented\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    connections: () => connections,
    stalledEnded: () => stalledEnded,
    stall: () => void (stalled = true),
    recover: () => void (stalled = false),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The verification (or any) link in the last mail to `to` whose body contains `contains`. */
export function linkIn(smtp: FakeSmtp, to: string, contains: string): string {
  const mail = [...smtp.received].reverse().find((m) => m.to.includes(to));
  if (!mail) throw new Error(`no mail to ${to}`);
  // Quoted-printable soft line breaks and escapes, as nodemailer writes the text part.
  const text = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
  const link = new RegExp(`https?://[^\\s"<>]*${contains.replace(/[/.]/g, "\\$&")}[^\\s"<>]*`).exec(
    text,
  )?.[0];
  if (!link) throw new Error(`no ${contains} link in the mail to ${to}`);
  return link.replace(/&amp;/g, "&");
}
