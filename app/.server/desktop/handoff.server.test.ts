import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { oneTimeTokens } from "../db/schema";
import { hashToken } from "../security/tokens";
import { burnToken, issueWebSessionToken, peekWebSessionToken } from "./handoff.server";

const DEVICE_ID = "7b0c5a52-2a61-4a36-9a8e-1f6c1d1f0c11";

describe("peekWebSessionToken", () => {
  let database: TestDatabase;
  let userId: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    userId = await insertUser(database.db, { email: "asha@example.com" });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("names the user of a live token and leaves the token usable", async () => {
    const token = await issueWebSessionToken(userId, DEVICE_ID, database.db);
    expect(await peekWebSessionToken(token, database.db)).toEqual({ email: "asha@example.com" });
    expect(await peekWebSessionToken(token, database.db)).toEqual({ email: "asha@example.com" });
    const [row] = await database.db
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.tokenHash, hashToken(token)));
    expect(row?.usedAt).toBeNull();
    // The device that asked travels with the token, to mark the browser session it opens.
    expect(await burnToken(token, "web_session", database.db)).toEqual({
      ok: true,
      userId,
      payload: { deviceId: DEVICE_ID },
    });
  });

  it("answers nothing for a used, expired, unknown or other-purpose token", async () => {
    const used = await issueWebSessionToken(userId, DEVICE_ID, database.db);
    await burnToken(used, "web_session", database.db);
    expect(await peekWebSessionToken(used, database.db)).toBeNull();

    const expired = await issueWebSessionToken(userId, DEVICE_ID, database.db);
    await database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.tokenHash, hashToken(expired)));
    expect(await peekWebSessionToken(expired, database.db)).toBeNull();

    const handoff = await issueWebSessionToken(userId, DEVICE_ID, database.db);
    await database.db
      .update(oneTimeTokens)
      .set({ purpose: "desktop_handoff" })
      .where(eq(oneTimeTokens.tokenHash, hashToken(handoff)));
    expect(await peekWebSessionToken(handoff, database.db)).toBeNull();

    expect(await peekWebSessionToken("no-such-token", database.db)).toBeNull();
    expect(await peekWebSessionToken("", database.db)).toBeNull();
    expect(await peekWebSessionToken("x".repeat(201), database.db)).toBeNull();
  });
});
