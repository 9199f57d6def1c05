/**
 * Issue 34 (found in session 20's review): the reason we cancel a subscription for is recorded
 * before Razorpay is asked, so a webhook that overtakes the answer, or a process that dies
 * between the two, never leaves it reading "cancelled outside this site".
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { subscriptions } from "../db/schema";
import { cancelAtRazorpay } from "./cancel-at-razorpay.server";
import { statusText } from "./overview.server";
import { RazorpayError } from "./razorpay/client";
import type { RazorpaySubscription } from "./razorpay/types";
import { applyProviderSubscription, markEnding } from "./subscriptions.server";

const NOW = Math.floor(Date.parse("2026-11-28T06:00:00Z") / 1000);

function entity(id: string, status: RazorpaySubscription["status"]): RazorpaySubscription {
  return {
    id,
    entity: "subscription",
    plan_id: "plan_monthly",
    status,
    current_start: NOW - 86_400,
    current_end: NOW + 29 * 86_400,
    ended_at: status === "cancelled" ? NOW : null,
    notes: {},
    total_count: 120,
    paid_count: 1,
    created_at: NOW - 86_400,
  };
}

describe("cancelling at Razorpay for a reason of ours", () => {
  let test: TestDatabase;
  let userId: string;
  beforeAll(async () => {
    test = await openTestDatabase();
    userId = await insertUser(test.db, { email: "cancel-reason@example.com" });
  });
  afterAll(async () => {
    await test?.close();
  });

  async function activeSubscription(providerId: string) {
    const [row] = await test.db
      .insert(subscriptions)
      .values({
        providerSubscriptionId: providerId,
        userId,
        planId: "pro-monthly",
        providerPlanId: "plan_monthly",
        status: "active",
        syncedAt: new Date((NOW - 60) * 1000),
      })
      .returning();
    return row!;
  }
  const stored = async (id: string) =>
    (await test.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

  it("keeps its reason when the webhook overtakes the answer and the process dies before it", async () => {
    const row = await activeSubscription("sub_overtaken");
    const client = {
      async cancelSubscription(id: string): Promise<RazorpaySubscription> {
        // Razorpay's subscription.cancelled webhook is processed before our call returns...
        await applyProviderSubscription(test.db, entity(id, "cancelled"), new Date());
        // ...and then the process is killed: the caller never records anything after the call.
        throw new Error("socket hang up");
      },
    };
    await expect(
      cancelAtRazorpay(test.db, client, row, { reason: "abandoned", atCycleEnd: false }),
    ).rejects.toThrow("socket hang up");
    const after = await stored(row.id);
    expect(after).toMatchObject({ status: "cancelled", endReason: "abandoned" });
    expect(statusText(after)).not.toMatch(/outside this site/);
  });

  it("clears the reason when Razorpay refuses, so a later cancellation in the UPI app reads as one", async () => {
    const row = await activeSubscription("sub_refused");
    const client = {
      cancelSubscription(): Promise<RazorpaySubscription> {
        return Promise.reject(new RazorpayError(400, "BAD_REQUEST_ERROR", "cannot cancel"));
      },
    };
    await expect(
      cancelAtRazorpay(test.db, client, row, { reason: "halted", atCycleEnd: false }),
    ).rejects.toThrow(RazorpayError);
    expect((await stored(row.id)).pendingEndReason).toBeNull();
    // Days later the customer cancels the mandate in their UPI app.
    await applyProviderSubscription(test.db, entity("sub_refused", "cancelled"), new Date());
    const after = await stored(row.id);
    expect(after.endReason).toBeNull();
    expect(statusText(after)).toMatch(/outside this site/);
  });

  it("forgets the reason when the customer takes the cancellation back, so a later one in the UPI app reads as such", async () => {
    const row = await activeSubscription("sub_undone");
    const client = {
      cancelSubscription(id: string): Promise<RazorpaySubscription> {
        // At the cycle's end: still active, with the cancellation scheduled.
        return Promise.resolve({ ...entity(id, "active"), has_scheduled_changes: true });
      },
    };
    await cancelAtRazorpay(test.db, client, row, { reason: "customer", atCycleEnd: true });
    await markEnding(test.db, row.id, "customer");
    // The customer undoes it: the subscription runs on.
    await markEnding(test.db, row.id, null);
    expect((await stored(row.id)).pendingEndReason).toBeNull();
    await applyProviderSubscription(test.db, entity("sub_undone", "cancelled"), new Date());
    expect(statusText(await stored(row.id))).toMatch(/outside this site/);
  });

  it("is the only caller of the client's cancel (every path records its reason first)", () => {
    const root = path.resolve(__dirname, "..");
    const callers: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          if (/\.cancelSubscription\(/.test(readFileSync(file, "utf8")))
            callers.push(path.relative(root, file));
        }
      }
    };
    walk(root);
    expect(callers.sort()).toEqual(
      [
        "billing/cancel-at-razorpay.server.ts",
        // The sandbox's own API, which plays Razorpay.
        ...callers.filter((file) => file.startsWith("billing/sandbox")),
      ].sort(),
    );
  });
});
