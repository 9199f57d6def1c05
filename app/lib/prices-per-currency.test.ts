/**
 * Issue 56's money rule, as properties: every price in every currency is a whole number of minor
 * units (set in site.ts, never converted), a coupon's charge stays a whole number of paise no larger
 * than the list price, and prices abroad keep the yearly saving the rupee prices promise.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { chargeWithCoupon } from "./coupons";
import { CURRENCIES, decimalOf, FOREIGN_CURRENCIES } from "./money";
import { paidPlanFor, planPriceIn } from "./plans";

describe("prices in every currency", () => {
  it("are whole, positive minor units for every paid plan and seat tier, none for Free", () => {
    for (const plan of site.plans)
      for (const currency of CURRENCIES) {
        const price = planPriceIn(plan, currency);
        expect(Number.isSafeInteger(price), `${plan.id} in ${currency}`).toBe(true);
        if (plan.billingCycle) expect(price).toBeGreaterThan(0);
        else expect(price).toBe(0);
        expect(decimalOf(price, currency)).toMatch(/^\d+\.\d{2}$/);
      }
    for (const tiers of Object.values(site.teams.seatPrices))
      for (const tier of tiers) {
        expect(Number.isSafeInteger(tier.pricePaise)).toBe(true);
        for (const currency of FOREIGN_CURRENCIES) {
          expect(Number.isSafeInteger(tier.pricesAbroad[currency])).toBe(true);
          expect(tier.pricesAbroad[currency]).toBeGreaterThan(0);
        }
      }
  });

  it("keep the yearly plan cheaper than twelve months in every currency", () => {
    for (const currency of CURRENCIES)
      expect(planPriceIn(paidPlanFor("yearly"), currency)).toBeLessThan(
        planPriceIn(paidPlanFor("monthly"), currency) * 12,
      );
  });
});

describe("a coupon's charge (rupees only)", () => {
  it("is a whole number of paise, never above the list price (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 101, max: 100_000_000 }),
        fc.oneof(
          fc.record({
            kind: fc.constant("percent" as const),
            amount: fc.integer({ min: 1, max: 99 }),
          }),
          fc.record({
            kind: fc.constant("flat" as const),
            amount: fc.integer({ min: 1, max: 10_000_000 }),
          }),
        ),
        fc.constantFrom("once" as const, "cycles" as const, "forever" as const),
        fc.integer({ min: 0, max: 30 }),
        (list, off, duration, index) => {
          const charge = chargeWithCoupon(
            list,
            { ...off, duration, durationCycles: duration === "cycles" ? 3 : null },
            index,
          );
          expect(Number.isSafeInteger(charge)).toBe(true);
          expect(charge).toBeLessThanOrEqual(list);
          expect(charge).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
