/** `entitlementFor` against a real (embedded) database: subscriptions and grants, in one query. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { entitlementGrants, subscriptions } from "../db/schema";
import { entitlementFor } from "./entitlement.server";

const NOW = new Date("2026-11-23T12:00:00Z");
const days = (n: number) => new Date(NOW.getTime() + n * 86_400_000);
let sequence = 0;

describe("entitlementFor", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(() => test.close());

  const user = () => insertUser(test.db, { email: `entitled-${(sequence += 1)}@example.com` });
  const subscribe = (userId: string, values: Partial<typeof subscriptions.$inferInsert>) =>
    test.db.insert(subscriptions).values({
      providerSubscriptionId: `sub_${(sequence += 1)}`,
      userId,
      planId: "pro-monthly",
      providerPlanId: "plan_x",
      status: "active",
      syncedAt: NOW,
      ...values,
    });
  const grant = (userId: string, planId: string, startsAt: Date, endsAt: Date) =>
    test.db.insert(entitlementGrants).values({ userId, planId, startsAt, endsAt, reason: "test" });
  const entitlement = (userId: string) => entitlementFor(userId, { database: test.db, now: NOW });

  it("is Free with neither", async () => {
    expect(await entitlement(await user())).toMatchObject({ plan: "free", expires_at: null });
  });

  it("reads a subscription's plan and period end", async () => {
    const id = await user();
    await subscribe(id, { currentEnd: days(20), chargeAt: days(20) });
    expect(await entitlement(id)).toMatchObject({
      plan: "pro-monthly",
      expires_at: days(20).toISOString(),
    });
  });

  // Issue 32, point 1: a refunded yearly duplicate said pro-yearly for a year.
  it("reads why a subscription ended: a refunded duplicate or period grants nothing", async () => {
    const id = await user();
    await subscribe(id, { status: "active", currentEnd: days(20), cancelAtCycleEnd: true });
    await subscribe(id, {
      planId: "pro-yearly",
      status: "cancelled",
      currentEnd: days(365),
      endReason: "duplicate",
    });
    await subscribe(id, {
      planId: "pro-yearly",
      status: "cancelled",
      currentEnd: days(300),
      endReason: "refunded",
    });
    expect(await entitlement(id)).toMatchObject({
      plan: "pro-monthly",
      expires_at: days(20).toISOString(),
    });
    // The customer's own cancellation keeps the period they paid for.
    await subscribe(id, {
      planId: "pro-yearly",
      status: "cancelled",
      currentEnd: days(200),
      endReason: "customer",
    });
    expect(await entitlement(id)).toMatchObject({
      plan: "pro-yearly",
      expires_at: days(200).toISOString(),
    });
  });

  it("reads a grant's plan and end, and ignores grants that ended", async () => {
    const id = await user();
    await grant(id, "pro-yearly", days(-1), days(30));
    await grant(id, "pro-yearly", days(-60), days(-30));
    expect(await entitlement(id)).toMatchObject({
      plan: "pro-yearly",
      expires_at: days(30).toISOString(),
    });
  });

  it("weighs both together: the later end of the same plan wins", async () => {
    const id = await user();
    await subscribe(id, { planId: "pro-yearly", status: "cancelled", currentEnd: days(5) });
    await grant(id, "pro-yearly", days(-1), days(40));
    expect((await entitlement(id)).expires_at).toBe(days(40).toISOString());
    // Another user's grant is not theirs.
    const other = await user();
    expect((await entitlement(other)).plan).toBe("free");
  });
});
