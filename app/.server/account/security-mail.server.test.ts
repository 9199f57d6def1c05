import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { jobs } from "../db/schema";
import { PermanentJobError } from "../jobs/worker.server";
import {
  ACCOUNT_MAIL_JOB,
  accountMailJob,
  queueAccountMail,
  sendAccountMail,
} from "./security-mail.server";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-account-mail-"));
vi.stubEnv("KEYS_ENCRYPTION_SECRET", "unit-test-keys-encryption-secret-0123456789");
vi.stubEnv("DATA_DIR", dataDir);
vi.stubEnv("SMTP_URL", "");

const outbox = () =>
  fs.existsSync(path.join(dataDir, "mail"))
    ? fs
        .readdirSync(path.join(dataDir, "mail"))
        .filter((name) => name.endsWith(".eml"))
        .sort()
        .map((name) => fs.readFileSync(path.join(dataDir, "mail", name), "utf8"))
    : [];

describe("security mail through the job queue", () => {
  let test: TestDatabase;
  let userId: string;

  beforeAll(async () => {
    test = await openTestDatabase();
    userId = await insertUser(test.db, { email: "old@example.com", name: "Asha" });
  });
  afterAll(async () => {
    await test?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const queued = async () =>
    (await test.db.select().from(jobs)).filter((job) => job.kind === ACCOUNT_MAIL_JOB);

  it("keeps the link sealed in the queue, and mails it to the address it was meant for", async () => {
    const url = "http://127.0.0.1/api/auth/verify-email?token=a-secret-token-value";
    const mail = {
      template: "confirm-email-change" as const,
      userId,
      dedupe: "event-1",
      to: "old@example.com",
      newEmail: "new@example.com",
      url,
    };
    await queueAccountMail(test.db, mail);
    await queueAccountMail(test.db, mail);
    const [job, ...more] = await queued();
    expect(more).toEqual([]);
    expect(JSON.stringify(job?.payload)).not.toContain("a-secret-token-value");
    expect(JSON.stringify(job?.payload)).not.toContain("new@example.com");

    await sendAccountMail(accountMailJob.payload.parse(job!.payload), test.db);
    const [message] = outbox();
    expect(message).toContain("To: old@example.com");
    expect(message).toContain("new@example.com");
    expect(message).toContain("a-secret-token-value");
  });

  it("drops a link whose address is no longer the account's, and mail for a deleted account", async () => {
    const before = outbox().length;
    await queueAccountMail(test.db, {
      template: "confirm-deletion",
      userId,
      dedupe: "event-2",
      to: "someone-before@example.com",
      url: "http://127.0.0.1/account/security?delete=t",
    });
    const job = (await queued()).at(-1)!;
    await sendAccountMail(accountMailJob.payload.parse(job.payload), test.db);
    await sendAccountMail({ template: "password-changed", userId: "no-such-user" }, test.db);
    expect(outbox().length).toBe(before);
  });

  it("sends the password-changed notice, and refuses a payload it cannot read for good", async () => {
    await sendAccountMail({ template: "password-changed", userId }, test.db);
    expect(outbox().at(-1)).toContain("password was changed");
    // A payload the job's schema refuses never reaches the handler: the worker fails it at once.
    expect(accountMailJob.payload.safeParse({ template: "nonsense", userId }).success).toBe(false);
    await expect(
      sendAccountMail({ template: "confirm-deletion", userId, sealed: "plain text" }, test.db),
    ).rejects.toThrow(PermanentJobError);
  });
});
