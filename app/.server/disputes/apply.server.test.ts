/**
 * Two events of one new dispute processed at once (the money lane runs two workers): the second
 * waits on the first's row and applies its own state after it, instead of failing on the key
 * (issue 59, point 4). PostgreSQL only: the embedded database runs one transaction at a time.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { httpEngine } from "../../../tests/support/engines";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import type { RazorpayDispute } from "../billing/razorpay/types";
import { adminAlerts, disputes } from "../db/schema";
import { applyDispute } from "./apply.server";

vi.stubEnv("KEYS_ENCRYPTION_SECRET", "unit-test-keys-encryption-secret-0123456789");

const opened: RazorpayDispute = {
  id: "disp_Concurrent0001",
  entity: "dispute",
  payment_id: "pay_NotOneOfOurs01",
  amount: 69_900,
  currency: "INR",
  amount_deducted: 0,
  status: "open",
  respond_by: 1_800_000_000,
  created_at: 1_790_000_000,
};

describe("applyDispute", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase({ engine: httpEngine() });
  });
  afterAll(async () => {
    await test?.close();
  });

  it("applies a second event of a new dispute after the first commits, without failing", async () => {
    let commitFirst = () => {};
    const held = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstApplied = () => {};
    const applied = new Promise<void>((resolve) => (firstApplied = resolve));
    const first = test.db.transaction(async (tx) => {
      await applyDispute(tx, opened);
      firstApplied();
      await held;
    });
    await applied;
    const second = test.db.transaction((tx) => applyDispute(tx, { ...opened, status: "won" }));
    // The second waits on the first's uncommitted row: seen as a lock not granted.
    const waiting = async () => {
      const result = (await test.db.execute(
        sql`select count(*)::int as waiting from pg_locks where not granted`,
      )) as unknown as { rows: { waiting: number }[] };
      return result.rows[0]?.waiting ?? 0;
    };
    await expect.poll(waiting, { timeout: 10_000 }).toBeGreaterThan(0);
    commitFirst();
    await expect(Promise.all([first, second])).resolves.toBeDefined();
    const rows = await test.db
      .select()
      .from(disputes)
      .where(eq(disputes.providerDisputeId, opened.id));
    expect(rows.map((row) => row.status)).toEqual(["won"]);
    // Opened once, won once.
    const alerts = await test.db.select({ key: adminAlerts.eventKey }).from(adminAlerts);
    expect(alerts.map((row) => row.key).sort()).toEqual([
      `dispute-open:${opened.id}`,
      `dispute-won:${opened.id}`,
    ]);
  });
});
