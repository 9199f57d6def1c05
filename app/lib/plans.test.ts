import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import {
  analyticsPlanName,
  findPlan,
  isPaidPlanId,
  monthlyValuePaise,
  PAID_PLAN_IDS,
  paidPlanFor,
  planById,
  planLabel,
  planPriceLabel,
  switchTarget,
} from "./plans";

describe("plans", () => {
  it("finds every configured plan, and only those", () => {
    for (const plan of site.plans) expect(findPlan(plan.id)).toBe(plan);
    expect(findPlan("enterprise")).toBeUndefined();
    expect(() => planById("enterprise" as never)).toThrow(/no plan "enterprise"/);
  });

  it("names the paid plans that exist in the config", () => {
    for (const id of PAID_PLAN_IDS) expect(planById(id).pricePaise).toBeGreaterThan(0);
    expect(isPaidPlanId("free")).toBe(false);
    expect(isPaidPlanId("pro-yearly")).toBe(true);
  });

  it("labels and prices plans the way the pages show them", () => {
    expect(planLabel("pro-monthly")).toBe("Pro (monthly)");
    expect(planLabel("free")).toBe("Free");
    expect(planLabel("legacy")).toBe("legacy");
    expect(planPriceLabel(planById("pro-monthly"))).toBe("₹699 / month");
    expect(planPriceLabel(planById("pro-yearly"))).toBe("₹6,999 / year");
  });

  it("switches monthly ↔ yearly", () => {
    expect(switchTarget(paidPlanFor("monthly"))?.id).toBe("pro-yearly");
    expect(switchTarget(paidPlanFor("yearly"))?.id).toBe("pro-monthly");
    expect(switchTarget(planById("free"))).toBeUndefined();
  });

  it("counts a yearly plan as a twelfth per month in MRR, in whole paise", () => {
    expect(monthlyValuePaise(planById("pro-monthly"))).toBe(69_900);
    expect(monthlyValuePaise(planById("pro-yearly"))).toBe(58_325);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), (pricePaise) => {
        const value = monthlyValuePaise({ ...planById("pro-yearly"), pricePaise });
        expect(Number.isInteger(value)).toBe(true);
        expect(Math.abs(value * 12 - pricePaise)).toBeLessThanOrEqual(6);
      }),
    );
  });

  it("gives each plan one analytics name, its label, that tells the billing cycles apart", () => {
    expect(analyticsPlanName("pro-monthly")).toBe("Pro (monthly)");
    expect(analyticsPlanName(planById("pro-yearly"))).toBe("Pro (yearly)");
    expect(analyticsPlanName("free")).toBe("Free");
    const names = site.plans.map((plan) => analyticsPlanName(plan));
    expect(new Set(names).size).toBe(site.plans.length);
    for (const plan of site.plans) {
      expect(analyticsPlanName(plan.id)).toBe(analyticsPlanName(plan));
      expect(analyticsPlanName(plan)).toBe(planLabel(plan));
    }
  });
});
