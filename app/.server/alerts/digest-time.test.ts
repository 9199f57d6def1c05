import { describe, expect, it } from "vitest";
import { nextDigestAt } from "./jobs.server";

describe("the alerts' digest", () => {
  it("comes at 9:00 India time (03:30 UTC), the same day before it and the next day after", () => {
    expect(nextDigestAt(new Date("2026-11-28T01:00:00.000Z")).toISOString()).toBe(
      "2026-11-28T03:30:00.000Z",
    );
    // 9:00 IST exactly is taken by the digest that is running: the next is tomorrow's.
    expect(nextDigestAt(new Date("2026-11-28T03:30:00.000Z")).toISOString()).toBe(
      "2026-11-29T03:30:00.000Z",
    );
    // 23:00 IST on the 28th is 17:30 UTC: the next is 9:00 IST on the 29th.
    expect(nextDigestAt(new Date("2026-11-28T17:30:00.000Z")).toISOString()).toBe(
      "2026-11-29T03:30:00.000Z",
    );
  });
});
