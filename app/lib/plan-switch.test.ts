import { describe, expect, it } from "vitest";
import { mandateWords, switchKindOf } from "./plan-switch";

describe("a scheduled switch's kind", () => {
  it("is another plan, the same plan at a coupon's price, or the same plan paid another way", () => {
    expect(switchKindOf({ planId: "pro-monthly" }, { planId: "pro-yearly", couponId: null })).toBe(
      "plan",
    );
    expect(switchKindOf({ planId: "pro-monthly" }, { planId: "pro-monthly", couponId: "c" })).toBe(
      "price",
    );
    expect(switchKindOf({ planId: "pro-monthly" }, { planId: "pro-monthly", couponId: null })).toBe(
      "method",
    );
  });

  it("says a team's change of seats as a change of plan", () => {
    expect(
      switchKindOf(
        { planId: "pro-monthly", seats: 1, teamId: "t" },
        { planId: "pro-monthly", couponId: null, seats: 5 },
      ),
    ).toBe("plan");
  });

  it("names the way a mandate pays, and nothing for one not known", () => {
    expect(mandateWords("upi")).toBe("UPI AutoPay");
    expect(mandateWords("card")).toBe("a card");
    expect(mandateWords(null)).toBeNull();
    expect(mandateWords("wallet")).toBeNull();
  });
});
