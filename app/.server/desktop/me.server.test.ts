/**
 * `/api/desktop/me` reads the device, its user and the entitlement in one statement (decision
 * 0032): the entitlement must be the one `entitlementFor` decides, any token that should be
 * refused is, and the call still records when the device was last seen and what version it runs.
 */
import { eq } from "drizzle-orm";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { engines } from "../../../tests/support/engines";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { entitlementFor } from "../billing/entitlement.server";
import { desktopDevices, entitlementGrants, subscriptions, user as users } from "../db/schema";
import { hashToken, randomToken } from "../security/tokens";
import { jwks } from "./license.server";
import { desktopMe } from "./me.server";

vi.stubEnv("KEYS_ENCRYPTION_SECRET", "unit-test-keys-encryption-secret-0123456789");
vi.stubEnv("API_RATE_LIMIT", "3");

const DAY = 24 * 60 * 60 * 1000;

describe.each(engines())("/api/desktop/me's answer on $name", (engine) => {
  let test: TestDatabase;
  let sequence = 0;
  beforeAll(async () => {
    test = await openTestDatabase({ engine });
  });
  afterAll(async () => {
    await test?.close();
  });

  /** A user with a signed-in device; its access token. */
  async function device(values: Partial<typeof desktopDevices.$inferInsert> = {}) {
    sequence += 1;
    const userId = await insertUser(test.db, { email: `me-${sequence}@example.com` });
    const token = randomToken();
    const [row] = await test.db
      .insert(desktopDevices)
      .values({
        userId,
        name: `Mac ${sequence}`,
        platform: "mac",
        appVersion: "2.1.0",
        accessTokenHash: hashToken(token),
        accessExpiresAt: new Date(Date.now() + 3_600_000),
        ...values,
      })
      .returning();
    return { userId, token, deviceId: row!.id };
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, appVersion: null });

  it("answers who, what they may use, a licence and the update, as entitlementFor decides", async () => {
    const { userId, token, deviceId } = await device();
    const now = new Date();
    const subscription = (values: Partial<typeof subscriptions.$inferInsert>) =>
      test.db.insert(subscriptions).values({
        providerSubscriptionId: `sub_${randomToken().slice(0, 12)}`,
        userId,
        planId: "pro-monthly",
        providerPlanId: "plan_x",
        status: "active",
        syncedAt: now,
        ...values,
      });
    const grant = (values: Partial<typeof entitlementGrants.$inferInsert>) =>
      test.db.insert(entitlementGrants).values({
        userId,
        planId: "pro-yearly",
        startsAt: new Date(now.getTime() - DAY),
        endsAt: new Date(now.getTime() + DAY),
        reason: "test",
        ...values,
      });
    const steps = [
      async () => {},
      () => subscription({ status: "cancelled", currentEnd: new Date(now.getTime() - DAY) }),
      () => grant({ endsAt: new Date(now.getTime() - 1000) }),
      () =>
        grant({
          startsAt: new Date(now.getTime() + DAY),
          endsAt: new Date(now.getTime() + 9 * DAY),
        }),
      () => subscription({ status: "cancelled", currentEnd: new Date(now.getTime() + 5 * DAY) }),
      () => grant({ planId: "pro-yearly", endsAt: new Date(now.getTime() + 2 * DAY + 123) }),
      // A refunded yearly duplicate, a year to run: grants nothing here as everywhere (issue 32).
      () =>
        subscription({
          planId: "pro-yearly",
          status: "cancelled",
          currentEnd: new Date(now.getTime() + 365 * DAY),
          endReason: "duplicate",
        }),
      () => subscription({ status: "active", currentEnd: null, chargeAt: null }),
    ];
    const plans: string[] = [];
    for (const step of steps) {
      await step();
      const outcome = await desktopMe(bearer(token), { database: test.db, now });
      expect(outcome.status).toBe(200);
      if (outcome.status !== 200) continue;
      expect(outcome.body.entitlement).toEqual(
        await entitlementFor(userId, { database: test.db, now }),
      );
      plans.push(`${outcome.body.entitlement.plan} ${outcome.body.entitlement.expires_at}`);
      expect(outcome.body.user).toEqual({
        id: userId,
        email: `me-${sequence}@example.com`,
        name: `me-${sequence}`,
      });
      expect(outcome.body.device).toEqual({
        id: deviceId,
        name: `Mac ${sequence}`,
        platform: "mac",
      });
      expect(outcome.body.update).toMatchObject({ required: false });
      const { payload } = await jwtVerify(
        outcome.body.license,
        createLocalJWKSet(await jwks(test.db)),
        { audience: "desktop" },
      );
      expect(payload).toMatchObject({
        entitlement: outcome.body.entitlement,
        device_id: deviceId,
        sub: userId,
      });
    }
    // Each step changed what the user may use, or not, as decided above: free, then paid plans.
    expect(plans[0]).toBe("free null");
    expect(new Set(plans).size).toBeGreaterThan(2);
    // The refunded duplicate changed nothing.
    expect(plans[6]).toBe(plans[5]);
  });

  // Issue 32, "also close": after Pro ended, three devices kept working on Free (one device).
  it("keeps only the most recently used devices within the plan's limit working after a downgrade", async () => {
    const now = new Date();
    const minutes = (n: number) => new Date(now.getTime() - n * 60_000);
    const first = await device({ lastSeenAt: minutes(30) });
    const more = async (lastSeenAt: Date) => {
      const token = randomToken();
      await test.db.insert(desktopDevices).values({
        userId: first.userId,
        name: "PC",
        platform: "windows",
        appVersion: "2.1.0",
        accessTokenHash: hashToken(token),
        accessExpiresAt: new Date(now.getTime() + 3_600_000),
        lastSeenAt,
      });
      return token;
    };
    const second = await more(minutes(20));
    const third = await more(minutes(10));
    const statusOf = async (token: string, seconds: number) =>
      (
        await desktopMe(bearer(token), {
          database: test.db,
          now: new Date(now.getTime() + seconds * 1000),
        })
      ).status;
    // Pro: three devices, all of them work.
    const [pro] = await test.db
      .insert(subscriptions)
      .values({
        providerSubscriptionId: `sub_${randomToken().slice(0, 12)}`,
        userId: first.userId,
        planId: "pro-monthly",
        providerPlanId: "plan_x",
        status: "active",
        currentEnd: new Date(now.getTime() + DAY),
        syncedAt: now,
      })
      .returning();
    // Used in turn: the third, the second, then the first last.
    expect([
      await statusOf(third, 0),
      await statusOf(second, 1),
      await statusOf(first.token, 2),
    ]).toEqual([200, 200, 200]);
    // Pro ends: Free allows one, the one used last (the first). The others are told why.
    await test.db
      .update(subscriptions)
      .set({ status: "cancelled", currentEnd: new Date(now.getTime() - 1000) })
      .where(eq(subscriptions.id, pro!.id));
    const later = new Date(now.getTime() + 120_000);
    const at = async (token: string) => desktopMe(bearer(token), { database: test.db, now: later });
    expect((await at(first.token)).status).toBe(200);
    // Each is told how many machines are in use before it (the check-in's words say so).
    expect(await at(second)).toEqual({ status: 403, deviceLimit: 1, inUse: 1 });
    expect(await at(third)).toEqual({ status: 403, deviceLimit: 1, inUse: 2 });
    // Refused, a device is not "used": asking again changes nothing, and the licence stays put.
    expect((await at(third)).status).toBe(403);
    expect((await at(first.token)).status).toBe(200);
    // Signing the first out on the security page lets the next most recent one in.
    await test.db
      .update(desktopDevices)
      .set({ revokedAt: later })
      .where(eq(desktopDevices.id, first.deviceId));
    expect((await at(second)).status).toBe(200);
    expect((await at(third)).status).toBe(403);
  });

  it("refuses a missing, malformed, unknown, expired or revoked token, and a banned account", async () => {
    const refused = async (authorization: string | null) =>
      (await desktopMe({ authorization, appVersion: null }, { database: test.db })).status;
    expect(await refused(null)).toBe(401);
    expect(await refused("Bearer short")).toBe(401);
    expect(await refused(`Basic ${randomToken()}`)).toBe(401);
    expect(await refused(`Bearer ${randomToken()}`)).toBe(401);
    const expired = await device({ accessExpiresAt: new Date(Date.now() - 1000) });
    expect(await refused(`Bearer ${expired.token}`)).toBe(401);
    const revoked = await device({ revokedAt: new Date() });
    expect(await refused(`Bearer ${revoked.token}`)).toBe(401);
    const banned = await device();
    expect(await refused(`Bearer ${banned.token}`)).toBe(200);
    await test.db.update(users).set({ banned: true }).where(eq(users.id, banned.userId));
    expect(await refused(`Bearer ${banned.token}`)).toBe(401);
  });

  it("records when the device was last seen (to the minute) and the version it reports", async () => {
    const seenLongAgo = new Date(Date.now() - 10 * 60_000);
    const { token, deviceId } = await device({ lastSeenAt: seenLongAgo });
    const row = async () =>
      (await test.db.select().from(desktopDevices).where(eq(desktopDevices.id, deviceId)))[0]!;
    const now = new Date();
    await desktopMe(
      { authorization: `Bearer ${token}`, appVersion: " 2.2.0 " },
      { database: test.db, now },
    );
    expect(await row()).toMatchObject({ lastSeenAt: now, appVersion: "2.2.0" });
    const later = new Date(now.getTime() + 30_000);
    const outcome = await desktopMe(
      { authorization: `Bearer ${token}`, appVersion: "not-a-version" },
      { database: test.db, now: later },
    );
    // Within the minute: not written again; a version that is none: the one it runs.
    expect(await row()).toMatchObject({ lastSeenAt: now, appVersion: "2.2.0" });
    expect(outcome.status).toBe(200);
  });

  it("counts the request in the API rate limit when asked, tokens or not", async () => {
    const { token } = await device();
    const counted: string[] = [];
    const count = {
      groups: ["me-test"],
      clientIp: "203.0.113.5",
      onCounted: counted.push.bind(counted),
    };
    const call = (authorization: string | null) =>
      desktopMe({ authorization, appVersion: null }, { database: test.db, count });
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    expect((await call(null)).status).toBe(401);
    expect((await call(`Bearer ${randomToken()}`)).status).toBe(401);
    const refused = await call(`Bearer ${token}`);
    expect(refused).toMatchObject({ status: 429 });
    expect(counted).toHaveLength(4);
  });
});
