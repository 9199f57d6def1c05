/**
 * The refund mail's "your account keeps Pro from …" (issue 54) is decided as the account pages
 * decide it, with the refunded subscription never the source: its end reason is recorded with
 * the refund, but its status changes only when the cancellation job has asked Razorpay, which may
 * run after the mail. A run where it did said "another subscription of yours" to a buyer whose
 * Pro came from a trial.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { readOutbox } from "../../../tests/support/mail";
import { payments, refunds, subscriptions } from "../db/schema";
import { startTrial } from "../trials/trials.server";
import { sendBillingMail } from "./notify.server";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-refund-mail-"));
vi.stubEnv("DATA_DIR", dataDir);
vi.stubEnv("SMTP_URL", "");

let test: TestDatabase;
beforeAll(async () => {
  test = await openTestDatabase();
});
afterAll(async () => {
  await test?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("names the trial as what keeps Pro while the refunded subscription still reads as running", async () => {
  const email = "trial-refund@example.com";
  const userId = await insertUser(test.db, { email, name: "Ishaan" });
  const started = await startTrial({ id: userId, email }, "site", { database: test.db });
  expect(started.ok).toBe(true);
  const now = Date.now();
  // Refunded a minute ago: the end reason is recorded, the cancellation job has not run yet.
  const [subscription] = await test.db
    .insert(subscriptions)
    .values({
      providerSubscriptionId: "sub_TrialRefund01",
      userId,
      planId: "pro-monthly",
      providerPlanId: "plan_TrialRefund01",
      status: "active",
      currentStart: new Date(now - 3_600_000),
      currentEnd: new Date(now + 29 * 86_400_000),
      paidCount: 1,
      endReason: "refunded",
      syncedAt: new Date(),
    })
    .returning();
  await test.db.insert(payments).values({
    providerPaymentId: "pay_TrialRefund01",
    subscriptionId: subscription!.id,
    amountPaise: 69_900,
    currency: "INR",
    amountRefundedPaise: 69_900,
    status: "refunded",
    method: "card",
    paidAt: new Date(now - 3_600_000),
  });
  await test.db.insert(refunds).values({
    providerRefundId: "rfnd_TrialRefund01",
    providerPaymentId: "pay_TrialRefund01",
    amountPaise: 69_900,
    status: "processed",
  });

  await sendBillingMail(
    { template: "refunded", subscriptionId: subscription!.id, refundId: "rfnd_TrialRefund01" },
    test.db,
  );
  const [mail] = readOutbox(dataDir).filter((each) => each.to.includes(email));
  const words = mail?.text.replace(/\s+/g, " ") ?? "";
  expect(words).toContain("Your account keeps Pro from your free trial until");
  expect(words).not.toContain("another subscription of yours");
});
