/**
 * Issue 34, point 2: which renewals get a notice, and how many days before the charge. One notice
 * per renewal (the mail's dedupe key is the charge's date; billing.server.test.ts shows the
 * yearly one queued a week ahead).
 */
import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { planById } from "~/lib/plans";
import { renewalNoticeDays } from "./notify.server";

describe("renewal notices", () => {
  it("give a yearly renewal a week, and a monthly one below the threshold none", () => {
    expect(renewalNoticeDays(planById("pro-yearly"))).toBe(7);
    expect(renewalNoticeDays(planById("pro-monthly"))).toBeNull();
    expect(renewalNoticeDays(planById("free"))).toBeNull();
  });

  it("give any renewal from the threshold up three days (RBI's pre-debit notice), once", () => {
    expect(site.pricing.renewalNoticeFromPaise).toBe(15_000_00);
    const monthly = { billingCycle: "monthly", pricePaise: 15_000_00 };
    expect(renewalNoticeDays(monthly)).toBe(3);
    expect(renewalNoticeDays({ ...monthly, pricePaise: 14_999_99 })).toBeNull();
    // A lower threshold in configuration brings today's monthly plan in.
    expect(renewalNoticeDays(planById("pro-monthly"), 500_00)).toBe(3);
    // A yearly renewal above it gets one notice, the earlier one.
    expect(renewalNoticeDays({ billingCycle: "yearly", pricePaise: 20_000_00 })).toBe(7);
  });
});
