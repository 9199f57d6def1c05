/**
 * The refund policy and the self-serve refund say the same thing: the window the code enforces is
 * the one content/legal/refund.md promises, and the policy tells the customer where the button is.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { payments, subscriptions } from "../db/schema";
import { selfRefundStanding } from "./self-refund.server";

const policy = fs.readFileSync(
  path.resolve(import.meta.dirname, "../../../content/legal/refund.md"),
  "utf8",
);

describe("the self-serve refund and the refund policy", () => {
  it("enforce the same window", () => {
    expect(policy).toContain(
      `ask for a full refund within ${REFUND_WINDOW_DAYS} days of the first payment of a new subscription`,
    );
    expect(policy).toContain(`**The ${REFUND_WINDOW_DAYS}-day refund of a first payment**`);
  });

  it("tells the customer where to ask for it", () => {
    expect(policy).toContain("**Account → Subscription** and choose **Request a refund**");
  });
});

describe("why there is no refund on offer", () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test?.close();
  });

  /** A new monthly subscription with its first payment, made an hour ago. */
  async function firstPayment(email: string, payment: { refundedPaise?: number } = {}) {
    const userId = await insertUser(test.db, { email });
    const [subscription] = await test.db
      .insert(subscriptions)
      .values({
        providerSubscriptionId: `sub_${email.slice(0, 8)}`,
        userId,
        planId: "pro-monthly",
        providerPlanId: "plan_Refusals01",
        status: "active",
        currentStart: new Date(Date.now() - 3_600_000),
        currentEnd: new Date(Date.now() + 29 * 86_400_000),
        paidCount: 1,
        syncedAt: new Date(),
      })
      .returning();
    await test.db.insert(payments).values({
      providerPaymentId: `pay_${email.slice(0, 8)}`,
      subscriptionId: subscription!.id,
      amountPaise: 69_900,
      currency: "INR",
      status: "captured",
      method: "card",
      amountRefundedPaise: payment.refundedPaise ?? 0,
      paidAt: new Date(Date.now() - 3_600_000),
    });
    return userId;
  }

  it("offers it inside the window, and names a refund made already the same day (issue 54)", async () => {
    const fresh = await firstPayment("fresh@example.com");
    expect(await selfRefundStanding(fresh, { database: test.db })).toMatchObject({
      amountPaise: 69_900,
    });
    // The operator refunded part of it an hour later: the reason is that refund, not the window.
    const partly = await firstPayment("partly@example.com", { refundedPaise: 20_000 });
    expect(await selfRefundStanding(partly, { database: test.db })).toEqual({
      refused: "refunded",
    });
  });
});
