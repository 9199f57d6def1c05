import { describe, expect, it } from "vitest";
import { versionShares } from "./stats.server";
import { OTHER_VERSION } from "./versions";

describe("versionShares", () => {
  it("names the largest versions and folds the rest, and any 'other' count, into one last row", () => {
    const totals = new Map<string, number>([[OTHER_VERSION, 5]]);
    for (let index = 0; index < 2_000; index += 1) totals.set(`9.${index}.0-made-up`, 1);
    totals.set("2.1.0", 500);
    totals.set("2.0.0", 300);
    const rows = versionShares(totals, 3);
    expect(rows.map((row) => row.version)).toEqual(["2.1.0", "2.0.0", "9.0.0-made-up", "other"]);
    expect(rows.at(-1)?.count).toBe(5 + 1_999);
    expect(rows.reduce((sum, row) => sum + row.share, 0)).toBeCloseTo(1);
  });

  it("lists nothing for nothing, and no 'other' row when every version is named", () => {
    expect(versionShares(new Map())).toEqual([]);
    expect(versionShares(new Map([["2.1.0", 2]]))).toEqual([
      { version: "2.1.0", count: 2, share: 1 },
    ]);
  });
});
