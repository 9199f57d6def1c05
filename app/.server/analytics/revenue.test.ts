/**
 * Issue 24, point 2: revenue from a scripted history across four months (new, a switch to yearly,
 * a cancellation, a duplicate refunded, a partial refund, a halt and its recovery). The expected
 * figures are worked out by hand below, not computed: Pro monthly is ₹699 (69,900 paise) and Pro
 * yearly ₹6,999, i.e. 58,325 paise a month.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { istStartOf } from "~/lib/india-time";
import { engines } from "../../../tests/support/engines";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { invoices, payments, refunds, subscriptions } from "../db/schema";
import { monthsEnding, periodEnd, type RevenuePayment, revenueByMonth } from "./revenue";
import { revenueMonths } from "./revenue.server";

/** A wall-clock time in India (month 1-12). */
const ist = (month: number, day: number, hour = 10) =>
  new Date(istStartOf(2026, month - 1, day).getTime() + hour * 3_600_000);

const NOW = ist(11, 15, 12);
const MONTHS = ["2026-08", "2026-09", "2026-10", "2026-11"];

interface Scripted {
  customer: string;
  subscription: string;
  plan: "pro-monthly" | "pro-yearly";
  replaces?: string;
  payments: { id: string; at: Date; status?: string; refunded?: number }[];
}

const HISTORY: Scripted[] = [
  // A pays every month; October's payment is refunded ₹100 in part (it still covers October).
  {
    customer: "a",
    subscription: "A1",
    plan: "pro-monthly",
    payments: [
      { id: "pay_a1", at: ist(8, 5) },
      { id: "pay_a2", at: ist(9, 5) },
      { id: "pay_a3", at: ist(10, 5), refunded: 10_000 },
      { id: "pay_a4", at: ist(11, 5) },
    ],
  },
  // B switches from monthly to yearly when August's period ends: MRR 69,900 → 58,325.
  {
    customer: "b",
    subscription: "B1",
    plan: "pro-monthly",
    payments: [{ id: "pay_b1", at: ist(8, 10) }],
  },
  {
    customer: "b",
    subscription: "B2",
    plan: "pro-yearly",
    replaces: "B1",
    payments: [{ id: "pay_b2", at: ist(9, 10) }],
  },
  // C cancels: August is paid, September is not.
  {
    customer: "c",
    subscription: "C1",
    plan: "pro-monthly",
    payments: [{ id: "pay_c1", at: ist(8, 12) }],
  },
  // D pays twice by mistake (the duplicate is refunded in full), then stops after September.
  {
    customer: "d",
    subscription: "D1",
    plan: "pro-monthly",
    payments: [
      { id: "pay_d1", at: ist(8, 20) },
      { id: "pay_d3", at: ist(9, 20) },
    ],
  },
  {
    customer: "d",
    subscription: "D2",
    plan: "pro-monthly",
    payments: [{ id: "pay_d2", at: ist(8, 20, 11), status: "refunded", refunded: 69_900 }],
  },
  // E's card fails on 1 and 2 September (halted), and pays again on 3 October, then monthly.
  {
    customer: "e",
    subscription: "E1",
    plan: "pro-monthly",
    payments: [
      { id: "pay_e1", at: ist(8, 1) },
      { id: "pay_e2", at: ist(9, 1), status: "failed" },
      { id: "pay_e3", at: ist(9, 2), status: "failed" },
      { id: "pay_e4", at: ist(10, 3) },
      { id: "pay_e5", at: ist(11, 3) },
    ],
  },
];

const REFUNDS = [
  { id: "rfnd_d2", payment: "pay_d2", amountPaise: 69_900, at: ist(8, 21) },
  { id: "rfnd_a3", payment: "pay_a3", amountPaise: 10_000, at: ist(10, 6) },
];

const EXPECTED = [
  {
    month: "2026-08",
    mrrPaise: 349_500,
    mrrByCurrency: { INR: 349_500 },
    subscribers: 5,
    newPaise: 349_500,
    expansionPaise: 0,
    contractionPaise: 0,
    churnedPaise: 0,
    recoveredPaise: 0,
    churnedCustomers: 0,
    churnRate: null,
    arpuPaise: 69_900,
    refundsPaise: 69_900,
    refunds: 1,
    creditNotesPaise: 69_900,
    creditNotes: 1,
    failedSubscriptions: 0,
    recoveredSubscriptions: 0,
    recoveryRate: null,
  },
  {
    month: "2026-09",
    mrrPaise: 198_125,
    mrrByCurrency: { INR: 198_125 },
    subscribers: 3,
    newPaise: 0,
    expansionPaise: 0,
    contractionPaise: 11_575,
    churnedPaise: 139_800,
    recoveredPaise: 0,
    churnedCustomers: 2,
    churnRate: 0.4,
    arpuPaise: 66_042,
    refundsPaise: 0,
    refunds: 0,
    creditNotesPaise: 0,
    creditNotes: 0,
    failedSubscriptions: 1,
    recoveredSubscriptions: 1,
    recoveryRate: 1,
  },
  {
    month: "2026-10",
    mrrPaise: 198_125,
    mrrByCurrency: { INR: 198_125 },
    subscribers: 3,
    newPaise: 0,
    expansionPaise: 0,
    contractionPaise: 0,
    churnedPaise: 69_900,
    recoveredPaise: 69_900,
    churnedCustomers: 1,
    churnRate: 1 / 3,
    arpuPaise: 66_042,
    refundsPaise: 10_000,
    refunds: 1,
    creditNotesPaise: 10_000,
    creditNotes: 1,
    failedSubscriptions: 0,
    recoveredSubscriptions: 0,
    recoveryRate: null,
  },
  {
    month: "2026-11",
    mrrPaise: 198_125,
    mrrByCurrency: { INR: 198_125 },
    subscribers: 3,
    newPaise: 0,
    expansionPaise: 0,
    contractionPaise: 0,
    churnedPaise: 0,
    recoveredPaise: 0,
    churnedCustomers: 0,
    churnRate: 0,
    arpuPaise: 66_042,
    refundsPaise: 0,
    refunds: 0,
    creditNotesPaise: 0,
    creditNotes: 0,
    failedSubscriptions: 0,
    recoveredSubscriptions: 0,
    recoveryRate: null,
  },
];

function paymentsOf(history: readonly Scripted[]): RevenuePayment[] {
  return history.flatMap((row) =>
    row.payments.map((payment) => ({
      customer: row.customer,
      subscriptionId: row.subscription,
      planId: row.plan,
      status: payment.status ?? "captured",
      amountPaise: row.plan === "pro-yearly" ? 699_900 : 69_900,
      amountRefundedPaise: payment.refunded ?? 0,
      paidAt: payment.at,
    })),
  );
}

describe("revenue by month", () => {
  it("matches the hand-worked figures of the scripted history", () => {
    const months = revenueByMonth({
      months: MONTHS,
      now: NOW,
      payments: paymentsOf(HISTORY),
      refunds: REFUNDS.map((refund) => ({ amountPaise: refund.amountPaise, at: refund.at })),
      creditNotes: REFUNDS.map((refund) => ({ totalPaise: refund.amountPaise, at: refund.at })),
    });
    expect(months).toEqual(EXPECTED);
  });

  it("moves each month's MRR by exactly its movements", () => {
    const months = revenueByMonth({
      months: MONTHS,
      now: NOW,
      payments: paymentsOf(HISTORY),
      refunds: [],
      creditNotes: [],
    });
    let previous = 0;
    for (const month of months) {
      expect(month.mrrPaise).toBe(
        previous +
          month.newPaise +
          month.expansionPaise +
          month.recoveredPaise -
          month.contractionPaise -
          month.churnedPaise,
      );
      previous = month.mrrPaise;
    }
  });

  it("counts a failed charge paid in the same second as recovered, by the order we recorded them", () => {
    const second = ist(11, 10);
    const payment = (status: string, recordedMs: number): RevenuePayment => ({
      customer: "u-same-second",
      subscriptionId: "s-same-second",
      planId: "pro-monthly",
      status,
      amountPaise: 69_900,
      amountRefundedPaise: 0,
      paidAt: second,
      recordedAt: new Date(second.getTime() + recordedMs),
    });
    const recovery = (payments: RevenuePayment[]) =>
      revenueByMonth({ months: MONTHS, now: NOW, payments, refunds: [], creditNotes: [] }).at(-1);
    // Failed, then paid by the retry in the same second: recovered.
    expect(recovery([payment("failed", 10), payment("captured", 250)])).toMatchObject({
      failedSubscriptions: 1,
      recoveredSubscriptions: 1,
    });
    // Paid first, then failed (the same second): not recovered.
    expect(recovery([payment("captured", 10), payment("failed", 250)])).toMatchObject({
      failedSubscriptions: 1,
      recoveredSubscriptions: 0,
    });
  });

  // Issue 37: a team's 3 seats are worth 3 × ₹699 a month; the upfront amount for 2 seats added
  // mid-cycle is that month's revenue, not MRR (the new number counts from its first charge).
  it("counts a team's seats at their price, and seats added mid-cycle as revenue only", () => {
    const team = (id: string, at: Date, amountPaise: number, extra: Partial<RevenuePayment>) => ({
      customer: "team:T",
      subscriptionId: id,
      planId: "pro-monthly",
      status: "captured",
      amountPaise,
      amountRefundedPaise: 0,
      paidAt: at,
      ...extra,
    });
    const [november] = revenueByMonth({
      months: ["2026-11"],
      now: NOW,
      payments: [
        team("T1", ist(11, 2), 209_700, { monthlyPaise: 209_700 }),
        team("T2", ist(11, 10), 93_200, { monthlyPaise: 349_500, recurring: false }),
      ],
      refunds: [],
      creditNotes: [],
    });
    expect(november).toMatchObject({ mrrPaise: 209_700, subscribers: 1, newPaise: 209_700 });
  });

  it("ends a period on the same day next month or year, or that month's last day", () => {
    expect(periodEnd(ist(1, 31), "monthly")).toEqual(ist(2, 28));
    expect(periodEnd(ist(3, 15, 23), "monthly")).toEqual(ist(4, 15, 23));
    expect(periodEnd(ist(12, 31, 1), "monthly")).toEqual(
      new Date(istStartOf(2027, 0, 31).getTime() + 3_600_000),
    );
    expect(periodEnd(ist(9, 10), "yearly")).toEqual(
      new Date(istStartOf(2027, 8, 10).getTime() + 10 * 3_600_000),
    );
  });

  it("lists the months ending with a month across a year", () => {
    expect(monthsEnding("2026-02", 4)).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
  });
});

describe.each(engines())("revenue read from the database on $name", (engine) => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase({ engine });
    const database = test.db;
    const users = new Map<string, string>();
    for (const customer of ["a", "b", "c", "d", "e"])
      users.set(customer, await insertUser(database, { email: `${customer}@example.com` }));
    const ids = new Map<string, string>();
    for (const row of HISTORY) {
      const [stored] = await database
        .insert(subscriptions)
        .values({
          providerSubscriptionId: `sub_${row.subscription}`,
          userId: users.get(row.customer)!,
          planId: row.plan,
          providerPlanId: `plan_${row.plan}`,
          status: "active",
          replacesSubscriptionId: row.replaces ? ids.get(row.replaces)! : null,
          syncedAt: NOW,
        })
        .returning({ id: subscriptions.id });
      ids.set(row.subscription, stored!.id);
    }
    for (const payment of paymentsOf(HISTORY))
      await database.insert(payments).values({
        providerPaymentId: HISTORY.flatMap((row) => row.payments).find(
          (scripted) => scripted.at === payment.paidAt,
        )!.id,
        subscriptionId: ids.get(payment.subscriptionId)!,
        userId: users.get(payment.customer)!,
        amountPaise: payment.amountPaise,
        amountRefundedPaise: payment.amountRefundedPaise,
        currency: "INR",
        status: payment.status,
        method: "card",
        paidAt: payment.paidAt,
      });
    for (const [index, refund] of REFUNDS.entries()) {
      await database.insert(refunds).values({
        providerRefundId: refund.id,
        providerPaymentId: refund.payment,
        amountPaise: refund.amountPaise,
        status: "processed",
        createdAt: refund.at,
      });
      await database.insert(invoices).values({
        kind: "credit_note",
        number: `CN/26-27/${index + 1}`,
        series: "credit:26-27",
        sequence: index + 1,
        providerPaymentId: refund.payment,
        providerRefundId: refund.id,
        issuedAt: refund.at,
        b2b: false,
        placeOfSupply: "29",
        taxablePaise: refund.amountPaise,
        cgstPaise: 0,
        sgstPaise: 0,
        igstPaise: 0,
        totalPaise: refund.amountPaise,
        document: {} as never,
      });
    }
    // A refund Razorpay refused is no refund.
    await database.insert(refunds).values({
      providerRefundId: "rfnd_failed",
      providerPaymentId: "pay_a4",
      amountPaise: 5_000,
      status: "failed",
      createdAt: ist(11, 6),
    });
  });
  afterAll(async () => {
    await test?.close();
  });

  it("reads the same figures from payments, refunds and credit notes", async () => {
    const months = await revenueMonths("2026-11", NOW, test.db);
    expect(months).toHaveLength(12);
    expect(months.slice(0, 8).every((month) => month.mrrPaise === 0)).toBe(true);
    expect(months.slice(8)).toEqual(EXPECTED);
  });

  it("counts a subscription paid abroad at its rupee value, split by currency (issue 56)", () => {
    const [month] = revenueByMonth({
      months: ["2026-12"],
      now: new Date("2026-12-20T00:00:00Z"),
      payments: [
        {
          customer: "in",
          subscriptionId: "s-in",
          planId: "pro-monthly",
          status: "captured",
          amountPaise: 69_900,
          amountRefundedPaise: 0,
          paidAt: new Date("2026-12-03T00:00:00Z"),
        },
        {
          customer: "de",
          subscriptionId: "s-de",
          planId: "pro-yearly",
          status: "captured",
          // $89, worth ₹7,520.50 as Razorpay converted it: a twelfth of that a month.
          amountPaise: 89_00,
          currency: "USD",
          inrPaise: 7_520_50,
          amountRefundedPaise: 0,
          paidAt: new Date("2026-12-04T00:00:00Z"),
        },
      ],
      refunds: [],
      creditNotes: [],
    });
    expect(month?.mrrByCurrency).toEqual({ INR: 69_900, USD: 62_671 });
    expect(month?.mrrPaise).toBe(69_900 + 62_671);
    expect(month?.newPaise).toBe(69_900 + 62_671);
  });
});
