import { describe, expect, it } from "vitest";
import { afterOwnSlot, nextSlot } from "./chain";

const HOUR = 3_600_000;

describe("chained jobs", () => {
  it("schedule the slot after their own when they ran early, not their own again", () => {
    const own = "2026-11-28T10:00:00.000Z";
    // This instance's clock is 2 s behind: the 10:00 job runs at 09:59:58.
    const early = new Date("2026-11-28T09:59:58.000Z");
    expect(nextSlot(afterOwnSlot(own, early), HOUR).toISOString()).toBe("2026-11-28T11:00:00.000Z");
    // From "now" alone it would schedule 10:00, its own (taken) slot.
    expect(nextSlot(early, HOUR).toISOString()).toBe(own);
  });

  it("schedule from now when they ran late, or carry no moment (queued before it was carried)", () => {
    const late = new Date("2026-11-28T12:20:00.000Z");
    expect(nextSlot(afterOwnSlot("2026-11-28T10:00:00.000Z", late), HOUR).toISOString()).toBe(
      "2026-11-28T13:00:00.000Z",
    );
    expect(afterOwnSlot(undefined, late)).toEqual(late);
  });
});
