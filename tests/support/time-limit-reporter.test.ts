import { describe, expect, it } from "vitest";
import { closeToTheirLimit } from "./time-limit-reporter";

describe("tests close to their time limit", () => {
  it("lists a test over a third of its limit, slowest share first, and no other", () => {
    expect(
      closeToTheirLimit([
        { name: "quick", durationMs: 1_000, limitMs: 90_000 },
        { name: "a third exactly", durationMs: 30_000, limitMs: 90_000 },
        { name: "footprint", durationMs: 82_000, limitMs: 90_000 },
        { name: "fuzz", durationMs: 210_000, limitMs: 600_000 },
        { name: "no limit", durationMs: 10_000, limitMs: 0 },
      ]),
    ).toEqual([
      { name: "footprint", seconds: 82, limitSeconds: 90 },
      { name: "fuzz", seconds: 210, limitSeconds: 600 },
    ]);
  });
});
