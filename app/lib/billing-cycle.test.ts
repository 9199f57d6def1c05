import { describe, expect, it } from "vitest";
import { addBillingCycles } from "./billing-cycle";

describe("addBillingCycles", () => {
  it("adds calendar months, clamped to the month's last day, keeping the time", () => {
    const end = new Date("2027-01-31T04:30:00.000Z");
    expect(addBillingCycles(end, "monthly", 1).toISOString()).toBe("2027-02-28T04:30:00.000Z");
    expect(addBillingCycles(end, "monthly", 3).toISOString()).toBe("2027-04-30T04:30:00.000Z");
    expect(addBillingCycles(new Date("2027-03-15T00:00:00Z"), "monthly", 2).toISOString()).toBe(
      "2027-05-15T00:00:00.000Z",
    );
  });

  it("counts a yearly cycle as twelve months, 29 February included", () => {
    expect(addBillingCycles(new Date("2028-02-29T10:00:00Z"), "yearly", 1).toISOString()).toBe(
      "2029-02-28T10:00:00.000Z",
    );
    expect(addBillingCycles(new Date("2027-12-08T10:00:00Z"), "yearly", 2).toISOString()).toBe(
      "2029-12-08T10:00:00.000Z",
    );
  });
});
