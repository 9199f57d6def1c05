import { describe, expect, it } from "vitest";
import { unusedPart } from "./cancel.server";

const day = 86_400_000;
const start = new Date("2026-11-01T00:00:00.000Z");
const monthly = {
  planId: "pro-monthly",
  status: "active" as const,
  currentStart: start,
  currentEnd: new Date(start.getTime() + 30 * day),
};

describe("the unused part of a paid period (refund policy: an early end by us)", () => {
  it("is the whole days left, in paise of the plan's price, rounded down", () => {
    expect(unusedPart(monthly, new Date(start.getTime() + 10 * day + 3_600_000))).toEqual({
      paise: Math.floor((69_900 * 19) / 30),
      currency: "INR",
      days: 19,
      ofDays: 30,
    });
    expect(unusedPart(monthly, start)).toEqual({
      paise: 69_900,
      currency: "INR",
      days: 30,
      ofDays: 30,
    });
    // A subscription abroad: its plan's price in its currency ($9 a month).
    expect(unusedPart({ ...monthly, currency: "USD" }, start)).toEqual({
      paise: 9_00,
      currency: "USD",
      days: 30,
      ofDays: 30,
    });
  });

  it("is nothing once the period is over, without a period, or for an ended subscription", () => {
    expect(unusedPart(monthly, monthly.currentEnd)).toBeNull();
    expect(unusedPart({ ...monthly, currentStart: null }, start)).toBeNull();
    expect(unusedPart({ ...monthly, status: "cancelled" }, start)).toBeNull();
    expect(unusedPart({ ...monthly, planId: "free" }, start)).toBeNull();
  });
});
