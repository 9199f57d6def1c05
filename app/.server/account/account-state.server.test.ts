/**
 * The account area's one read against a real (embedded) database: what it gives is what the
 * separate reads it replaced give (entitlement, dunning banner, devices), for any mix of rows.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { decideEntitlement, entitlementFor } from "../billing/entitlement.server";
import { accountBanner } from "../billing/overview.server";
import { subscriptionsOf } from "../billing/subscriptions.server";
import {
  desktopDevices,
  entitlementGrants,
  SUBSCRIPTION_END_REASONS,
  SUBSCRIPTION_STATUSES,
  subscriptions,
} from "../db/schema";
import { randomToken } from "../security/tokens";
import { readAccountState } from "./account-state.server";

const NOW = new Date("2026-11-24T12:00:00.123Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const PLANS = ["pro-monthly", "pro-yearly", "team-monthly", "retired-plan"] as const;
let sequence = 0;

const subscriptionRow = fc.record({
  planId: fc.constantFrom(...PLANS),
  status: fc.constantFrom(...SUBSCRIPTION_STATUSES),
  createdMinutes: fc.integer({ min: -100_000, max: 0 }),
  currentEndMinutes: fc.option(fc.integer({ min: -100_000, max: 100_000 })),
  chargeAtMinutes: fc.option(fc.integer({ min: -100_000, max: 100_000 })),
  replacesPrevious: fc.boolean(),
  endReason: fc.option(fc.constantFrom(...SUBSCRIPTION_END_REASONS)),
});
const grantRow = fc.record({
  planId: fc.constantFrom(...PLANS),
  startsMinutes: fc.integer({ min: -100_000, max: 1_000 }),
  lengthMinutes: fc.integer({ min: 1, max: 200_000 }),
});
const deviceRow = fc.record({ revoked: fc.boolean() });

describe("the account state", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(() => test.close());

  it("is nothing for a user who has nothing", async () => {
    const userId = await insertUser(test.db, { email: "nothing@example.com", createdAt: at(-5) });
    const state = await readAccountState(userId, { database: test.db, now: NOW });
    expect(state).toEqual({
      forMachine: false,
      subscriptions: [],
      grants: [],
      seats: [],
      activeDevices: 0,
      onboarding: {
        signedUpAt: at(-5),
        handoffAt: null,
        signedInAt: null,
        seenAt: null,
        usageAt: null,
      },
      overview: {
        referralCode: null,
        referralsMade: [],
        referredBy: null,
        reportedSteps: [],
        latestInvoice: null,
      },
    });
  });

  it("decides as the separate reads do, for any subscriptions, grants and devices", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(subscriptionRow, { maxLength: 4 }),
        fc.array(grantRow, { maxLength: 3 }),
        fc.array(deviceRow, { maxLength: 3 }),
        async (subs, grants, devices) => {
          const userId = await insertUser(test.db, {
            email: `state-${(sequence += 1)}@example.com`,
          });
          let previous: string | null = null;
          for (const row of subs) {
            const [inserted]: { id: string }[] = await test.db
              .insert(subscriptions)
              .values({
                providerSubscriptionId: `sub_${(sequence += 1)}`,
                userId,
                planId: row.planId,
                providerPlanId: "plan_x",
                status: row.status,
                syncedAt: NOW,
                createdAt: at(row.createdMinutes),
                currentEnd: row.currentEndMinutes === null ? null : at(row.currentEndMinutes),
                chargeAt: row.chargeAtMinutes === null ? null : at(row.chargeAtMinutes),
                replacesSubscriptionId: row.replacesPrevious ? previous : null,
                endReason: row.endReason,
              })
              .returning();
            previous = inserted!.id;
          }
          for (const grant of grants) {
            await test.db.insert(entitlementGrants).values({
              userId,
              planId: grant.planId,
              startsAt: at(grant.startsMinutes),
              endsAt: at(grant.startsMinutes + grant.lengthMinutes),
              reason: "test",
            });
          }
          for (const device of devices) {
            await test.db.insert(desktopDevices).values({
              userId,
              name: "PC",
              platform: "windows",
              appVersion: "2.1.0",
              accessTokenHash: randomToken(),
              accessExpiresAt: at(60),
              revokedAt: device.revoked ? at(-1) : null,
            });
          }

          const state = await readAccountState(userId, { database: test.db, now: NOW });
          expect(decideEntitlement(state, NOW)).toEqual(
            await entitlementFor(userId, { database: test.db, now: NOW }),
          );
          const rows = await subscriptionsOf(userId, test.db);
          expect(accountBanner(state)).toBe(accountBanner({ subscriptions: rows }));
          expect(state.subscriptions.map((row) => row.createdAt.getTime()).sort()).toEqual(
            rows.map((row) => row.createdAt.getTime()).sort(),
          );
          expect(state.activeDevices).toBe(devices.filter((device) => !device.revoked).length);
        },
      ),
      { numRuns: 40 },
    );
  });
});
