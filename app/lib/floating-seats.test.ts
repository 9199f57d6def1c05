import { describe, expect, it } from "vitest";
import { floatingRefusalText, machinesAllowed, peakOverlap } from "./floating-seats";

describe("floating seats", () => {
  it("admits the seats plus the allowance, rounded down", () => {
    expect(machinesAllowed(2, 0)).toBe(2);
    expect(machinesAllowed(2, 25)).toBe(2);
    expect(machinesAllowed(4, 25)).toBe(5);
    expect(machinesAllowed(2, 50)).toBe(3);
    expect(machinesAllowed(3, 100)).toBe(6);
  });

  it("names the limit in a refusal, and the allowance when there is one", () => {
    expect(floatingRefusalText("Acme", 2, 2)).toMatch(
      /^All of Acme's 2 floating seats are in use\. /,
    );
    expect(floatingRefusalText("Acme", 1, 1)).toMatch(/^Acme's 1 floating seat is in use\. /);
    expect(floatingRefusalText("Acme", 2, 3)).toContain(
      "(with its overage allowance, up to 3 machines)",
    );
  });

  it("finds the most leases open at once, a seat given back and taken at one instant counting once", () => {
    const at = (hour: number) => new Date(Date.UTC(2026, 11, 1, hour));
    const from = at(0);
    const now = at(23);
    expect(peakOverlap([], from, now)).toBe(0);
    expect(
      peakOverlap(
        [
          { start: at(1), end: at(5) },
          { start: at(2), end: at(3) },
          { start: at(3), end: at(6) },
          // Before the window: does not count.
          {
            start: new Date(from.getTime() - 7_200_000),
            end: new Date(from.getTime() - 3_600_000),
          },
          // Open now.
          { start: at(4), end: now },
        ],
        from,
        now,
      ),
    ).toBe(3);
  });
});
