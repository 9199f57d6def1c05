/**
 * A subscription's coupon in words on its owner's page (and the operator's): how many discounted
 * payments are to come, and none once it has ended or is set to end (issue 54: after an
 * operator's "Cancel now" the customer's page still promised discounted payments).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { coupons } from "../db/schema";
import { subscriptionCouponText } from "./subscription-coupon.server";

describe("subscriptionCouponText", () => {
  let test: TestDatabase;
  let couponId = "";

  beforeAll(async () => {
    test = await openTestDatabase();
    const [coupon] = await test.db
      .insert(coupons)
      .values({
        code: "LAUNCH20",
        kind: "percent",
        amount: 20,
        duration: "cycles",
        durationCycles: 3,
        providerOfferId: "offer_Launch20",
      })
      .returning();
    couponId = coupon!.id;
  });
  afterAll(async () => {
    await test?.close();
  });

  const text = (fields: {
    status: "active" | "pending" | "cancelled" | "completed" | "paused";
    paidCount: number;
    cancelAtCycleEnd?: boolean;
  }) =>
    subscriptionCouponText(
      { planId: "pro-monthly", couponId, cancelAtCycleEnd: false, ...fields },
      test.db,
    );

  it("counts the discounted payments to come while it renews", async () => {
    expect(await text({ status: "active", paidCount: 1 })).toMatch(
      /^LAUNCH20: .*; 2 discounted payments to come\.$/,
    );
    expect(await text({ status: "active", paidCount: 3 })).toMatch(
      /its discounted payments are done, so the full price applies\.$/,
    );
    // Paused: it resumes, and its discount with it.
    expect(await text({ status: "paused", paidCount: 2 })).toMatch(/1 discounted payment to come/);
  });

  it("promises no payment once it has ended or is set to end", async () => {
    for (const ended of [
      { status: "cancelled" as const, paidCount: 1 },
      { status: "completed" as const, paidCount: 1 },
      { status: "active" as const, paidCount: 1, cancelAtCycleEnd: true },
    ]) {
      const words = await text(ended);
      expect(words, JSON.stringify(ended)).toMatch(/; no more payments are to come\.$/);
      expect(words).not.toMatch(/discounted payments? to come/);
    }
  });
});
