import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.resolve(import.meta.dirname, "..", "..");

/** Every source file under app/, tests excluded. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/**
 * Issue 19, point 5, as a rule for every future caller: mail is sent by the mail lane only. The
 * modules that may send (each is the handler of a mail job) are listed; any other module that
 * imports `sendMail` would send on a request's path, and fails here. New mail goes through
 * `queueMail` (mail/outbox.server.ts) or a job of its own.
 */
const MAIL_JOB_MODULES = [
  "app/.server/account/security-mail.server.ts",
  "app/.server/billing/notify.server.ts",
  "app/.server/mail/outbox.server.ts",
  "app/.server/trials/mails.server.ts",
];

describe("mail leaves only through the mail lane", () => {
  it("has sendMail imported by mail job handlers only", () => {
    const senders = sources(APP)
      .filter((file) => {
        const text = fs.readFileSync(file, "utf8");
        return (
          /import\s*\{[^}]*\bsendMail\b[^}]*\}\s*from\s*"[^"]*mail\/mailer.server"/.test(text) ||
          /import\s*\{[^}]*\bsendMail\b[^}]*\}\s*from\s*"\.\/mailer.server"/.test(text)
        );
      })
      .map((file) => path.relative(path.dirname(APP), file));
    expect(senders.sort()).toEqual(MAIL_JOB_MODULES);
  });
});
