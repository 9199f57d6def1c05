import { describe, expect, it } from "vitest";
import { formatDateTime, formatDay } from "~/lib/dates";
import { describeUsage, niceCeiling } from "./UsageChart";

describe("usage chart", () => {
  it("rounds the top of the scale up to 1, 2 or 5 × 10ⁿ", () => {
    expect([0, 1, 2, 3, 7, 10, 11, 240, 501].map(niceCeiling)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 500, 1000,
    ]);
  });

  it("sums the chart up in one sentence", () => {
    expect(
      describeUsage([
        { day: "2026-03-09", total: 0 },
        { day: "2026-03-10", total: 4 },
        { day: "2026-03-11", total: 1200 },
      ]),
    ).toBe(
      "Usage per day, 9 Mar to 11 Mar 2026: 1,204 in total on 2 days; the busiest day was 11 Mar with 1,200.",
    );
    expect(describeUsage([{ day: "2026-03-11", total: 0 }])).toBe(
      "Usage per day, 11 Mar to 11 Mar 2026: no usage.",
    );
  });

  it("reads day keys as dates and instants in India time", () => {
    expect(formatDay("2026-03-01")).toBe("1 Mar");
    expect(formatDateTime("2026-03-10T18:30:00Z")).toMatch(/^11 Mar 2026, 12:00\s?am$/i);
  });
});
