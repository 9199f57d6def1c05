import { describe, expect, it } from "vitest";
import { istWeekOf } from "./trial-funnel.server";

describe("istWeekOf", () => {
  it("gives the Monday of the India week a day falls in", () => {
    expect(istWeekOf("2026-11-30")).toBe("2026-11-30"); // a Monday
    expect(istWeekOf("2026-12-02")).toBe("2026-11-30"); // Wednesday
    expect(istWeekOf("2026-12-06")).toBe("2026-11-30"); // Sunday ends the week
    expect(istWeekOf("2026-11-29")).toBe("2026-11-23");
    expect(istWeekOf("2027-01-01")).toBe("2026-12-28"); // across a year
  });
});
