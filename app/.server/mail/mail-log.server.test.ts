import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { mailAddressOf, mailsTo, recordMailAttempt } from "./mail-log.server";

describe("the record of mails sent (issue 33, point 5)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test?.close();
  });

  it("keeps one row per mail across its tries: failing with the error, then sent", async () => {
    const mail = { key: "job-41", to: '"Asha" <Asha@Example.com>', subject: "Your invoice" };
    await recordMailAttempt({ ...mail, error: "connect ECONNREFUSED 127.0.0.1:2525" }, test.db);
    expect(await mailsTo("asha@example.com", test.db)).toMatchObject([
      {
        subject: "Your invoice",
        status: "failed",
        attempts: 1,
        lastError: "connect ECONNREFUSED 127.0.0.1:2525",
      },
    ]);
    await recordMailAttempt(mail, test.db);
    const [row, ...rest] = await mailsTo("ASHA@example.com", test.db);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(row!.lastAttemptAt.getTime()).toBeGreaterThanOrEqual(row!.firstAttemptAt.getTime());
    // A mail without a key (not sent by a job) is a row of its own; another address sees none.
    await recordMailAttempt({ to: "asha@example.com", subject: "Password changed" }, test.db);
    expect((await mailsTo("asha@example.com", test.db)).map((r) => r.subject).sort()).toEqual([
      "Password changed",
      "Your invoice",
    ]);
    expect(await mailsTo("ravi@example.com", test.db)).toEqual([]);
  });

  it("reads the address out of a display name", () => {
    expect(mailAddressOf('"Pinout" <Support@Pinout.dev>')).toBe("support@pinout.dev");
    expect(mailAddressOf(" Ravi@Example.com ")).toBe("ravi@example.com");
  });
});
