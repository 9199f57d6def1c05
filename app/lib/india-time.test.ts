import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IST_OFFSET_MS, istDay } from "./india-time";

describe("istDay", () => {
  it("is the India date of any moment, asked in any order (its memory never leaks a day)", () => {
    const plain = (at: number) => new Date(at + IST_OFFSET_MS).toISOString().slice(0, 10);
    // Moments around India midnights, where a remembered day would be wrong first.
    const midnight = Date.UTC(2026, 11, 7, 18, 30);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: midnight - 3, max: midnight + 3 }),
            fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }),
          ),
          { minLength: 1, maxLength: 20 },
        ),
        (moments) => {
          for (const at of moments) expect(istDay(new Date(at))).toBe(plain(at));
        },
      ),
    );
    expect(istDay(new Date(midnight - 1))).toBe("2026-12-07");
    expect(istDay(new Date(midnight))).toBe("2026-12-08");
  });
});
