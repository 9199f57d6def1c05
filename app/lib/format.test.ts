import { describe, expect, it } from "vitest";
import { countOf } from "./format";

describe("countOf", () => {
  it("says one thing in the singular and every other count in the plural, grouped as in India", () => {
    expect(countOf(1, "download")).toBe("1 download");
    expect(countOf(0, "download")).toBe("0 downloads");
    expect(countOf(120_000, "download")).toBe("1,20,000 downloads");
    expect(countOf(1, "visitor-day")).toBe("1 visitor-day");
    expect(countOf(2, "person", "people")).toBe("2 people");
  });
});
