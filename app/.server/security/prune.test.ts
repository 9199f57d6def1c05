import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { oneTimeTokens, rateLimitHits } from "../db/schema";
import { pruneExpiredSecurityRows } from "./rate-limit.server";

describe("pruning expired security rows", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test.close();
  });

  it("deletes old counters and expired tokens, and keeps what is still in use", async () => {
    const userId = await insertUser(test.db, { email: "prune@example.com" });
    await test.db.insert(rateLimitHits).values([
      { key: "old", count: 3, windowStart: sql`now() - interval '2 days'` },
      { key: "current", count: 1, windowStart: sql`now()` },
    ]);
    await test.db.insert(oneTimeTokens).values([
      {
        tokenHash: "expired",
        purpose: "web_session",
        userId,
        expiresAt: sql`now() - interval '3 days'`,
      },
      {
        tokenHash: "live",
        purpose: "web_session",
        userId,
        expiresAt: sql`now() + interval '1 minute'`,
      },
    ]);
    expect(await pruneExpiredSecurityRows(test.db)).toEqual({ rateLimitHits: 1, oneTimeTokens: 1 });
    expect((await test.db.select().from(rateLimitHits)).map((row) => row.key)).toEqual(["current"]);
    expect((await test.db.select().from(oneTimeTokens)).map((row) => row.tokenHash)).toEqual([
      "live",
    ]);
  });
});
