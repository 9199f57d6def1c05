/**
 * Payment rows against a real (embedded) database: a payment's status only moves forward, whatever
 * order Razorpay's snapshots of it arrive in, and two writers racing obey the same order.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines } from "../../../tests/support/engines";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { payments } from "../db/schema";
import { recordPayment } from "./payments.server";
import type { RazorpayPayment } from "./razorpay/types";

type Status = RazorpayPayment["status"];

let sequence = 0;
const newPaymentId = () => `pay_order${String((sequence += 1)).padStart(6, "0")}`;

function snapshot(id: string, status: Status, amountRefunded = 0): RazorpayPayment {
  return {
    id,
    entity: "payment",
    amount: 69_900,
    currency: "INR",
    status,
    method: "card",
    amount_refunded: amountRefunded,
    card: { last4: "4366", network: "Visa" },
    notes: {},
    created_at: 1_795_000_000,
  };
}

describe.each(engines())("a payment's status moves only forward, on $name", (engine) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase({ engine });
  });
  afterAll(async () => {
    await test.close();
  });

  const statusOf = async (id: string) => {
    const [row] = await test.db
      .select({ status: payments.status, refunded: payments.amountRefundedPaise })
      .from(payments)
      .where(eq(payments.providerPaymentId, id));
    return row;
  };
  /** Records the snapshots one after the other, as late and replayed events would. */
  async function recordInOrder(statuses: readonly (Status | [Status, number])[]) {
    const id = newPaymentId();
    for (const entry of statuses) {
      const [status, refunded] = Array.isArray(entry) ? entry : [entry, 0];
      await recordPayment(test.db, snapshot(id, status, refunded), null);
    }
    return statusOf(id);
  }

  it("keeps a refunded payment refunded when a late 'captured' snapshot arrives", async () => {
    expect(await recordInOrder(["captured", ["refunded", 69_900], "captured"])).toEqual({
      status: "refunded",
      refunded: 69_900,
    });
    expect(await recordInOrder([["refunded", 69_900], "authorized", "captured"])).toEqual({
      status: "refunded",
      refunded: 69_900,
    });
  });

  it("keeps a failed payment failed", async () => {
    for (const late of ["created", "authorized", "captured", "refunded"] as const)
      expect((await recordInOrder(["failed", late]))?.status, `failed, then ${late}`).toBe(
        "failed",
      );
    expect((await recordInOrder(["authorized", "failed"]))?.status).toBe("failed");
  });

  it("never fails a captured or refunded payment, nor moves captured back to authorized", async () => {
    expect((await recordInOrder(["captured", "failed"]))?.status).toBe("captured");
    expect((await recordInOrder(["captured", "authorized", "created"]))?.status).toBe("captured");
    expect((await recordInOrder([["refunded", 69_900], "failed"]))?.status).toBe("refunded");
  });

  it("moves forward: created → authorized → captured → refunded", async () => {
    const id = newPaymentId();
    const seen: (string | undefined)[] = [];
    for (const status of ["created", "authorized", "captured", "refunded"] as const) {
      await recordPayment(test.db, snapshot(id, status, status === "refunded" ? 69_900 : 0), null);
      seen.push((await statusOf(id))?.status);
    }
    expect(seen).toEqual(["created", "authorized", "captured", "refunded"]);
    expect((await recordInOrder(["authorized", "captured"]))?.status).toBe("captured");
  });

  it("ends refunded when a refund and stale snapshots are written at the same time", async () => {
    // On PostgreSQL each transaction has its own connection: the writers really race.
    for (let round = 0; round < 10; round += 1) {
      const id = newPaymentId();
      await recordPayment(test.db, snapshot(id, "captured"), null);
      const writers: [Status, number][] = [
        ["captured", 0],
        ["authorized", 0],
        ["refunded", 69_900],
        ["created", 0],
        ["captured", 0],
        ["authorized", 0],
      ];
      // The refund lands anywhere among the stale writers, the stale ones last in some rounds.
      writers.push(...writers.splice(0, round % writers.length));
      await Promise.all(
        writers.map(([status, refunded]) =>
          test.db.transaction((tx) => recordPayment(tx, snapshot(id, status, refunded), null)),
        ),
      );
      expect(await statusOf(id), `round ${round}`).toEqual({
        status: "refunded",
        refunded: 69_900,
      });
    }
  });
});

describe.each(engines())(
  "a payment's worth in rupees, as Razorpay reports it, on $name",
  (engine) => {
    let test: TestDatabase;
    beforeAll(async () => {
      test = await openTestDatabase({ engine });
    });
    afterAll(async () => {
      await test.close();
    });

    const inrValueStored = async (id: string) =>
      (
        await test.db
          .select({
            inr: payments.inrValuePaise,
            amount: payments.amountPaise,
            currency: payments.currency,
          })
          .from(payments)
          .where(eq(payments.providerPaymentId, id))
      )[0];

    it("keeps a rupee payment's amount, and a dollar payment's base_amount, with its dollars", async () => {
      const rupees = newPaymentId();
      await recordPayment(test.db, snapshot(rupees, "captured"), null);
      expect(await inrValueStored(rupees)).toEqual({
        inr: 69_900,
        amount: 69_900,
        currency: "INR",
      });

      const dollars = newPaymentId();
      await recordPayment(
        test.db,
        {
          ...snapshot(dollars, "captured"),
          amount: 89_00,
          currency: "USD",
          base_amount: 7_520_50,
          base_currency: "INR",
        },
        null,
      );
      expect(await inrValueStored(dollars)).toEqual({
        inr: 7_520_50,
        amount: 89_00,
        currency: "USD",
      });
    });

    it("leaves it unknown without a conversion, and takes it from a later snapshot that has one, once", async () => {
      const id = newPaymentId();
      const usd = { ...snapshot(id, "captured"), amount: 89_00, currency: "USD" };
      await recordPayment(test.db, usd, null);
      expect((await inrValueStored(id))?.inr).toBeNull();
      await recordPayment(test.db, { ...usd, base_amount: 7_520_50, base_currency: "INR" }, null);
      expect((await inrValueStored(id))?.inr).toBe(7_520_50);
      // A replayed snapshot with another figure never changes the payment's recorded rupees.
      await recordPayment(test.db, { ...usd, base_amount: 9_999_99, base_currency: "INR" }, null);
      expect((await inrValueStored(id))?.inr).toBe(7_520_50);
    });
  },
);
