import { describe, expect, it } from "vitest";
import { trialCountdown, trialDaysLeft } from "./trials";

describe("the trial countdown", () => {
  const now = new Date("2026-12-02T06:30:00Z");

  it("counts a part day as a day, in India dates", () => {
    expect(trialCountdown("2026-12-11T09:00:00Z", now)).toBe(
      "Pro trial: 10 days left, ends 11 Dec 2026",
    );
    expect(trialDaysLeft("2026-12-02T07:30:00Z", now)).toBe(1);
    expect(trialDaysLeft("2026-12-01T07:30:00Z", now)).toBe(0);
    // 20:00 UTC on the 10th is already the 11th in India.
    expect(trialCountdown("2026-12-10T20:00:00Z", now)).toMatch(/ends 11 Dec 2026$/);
  });
});
