import { describe, expect, it } from "vitest";
import { parseRanges } from "./range";

const one = (start: number, end: number) => ({ kind: "partial", ranges: [{ start, end }] });

describe("parseRanges", () => {
  it.each([
    [null, { kind: "full" }],
    ["bytes=0-99", one(0, 99)],
    ["bytes=900-", one(900, 999)],
    ["bytes=-100", one(900, 999)],
    ["bytes=-5000", one(0, 999)],
    ["bytes=990-5000", one(990, 999)],
    ["bytes=1000-", { kind: "unsatisfiable" }],
    ["bytes=50-10", { kind: "unsatisfiable" }],
    ["bytes=-0", { kind: "unsatisfiable" }],
    ["items=0-5", { kind: "full" }],
    ["bytes=0-5,x", { kind: "full" }],
    ["bytes=-", { kind: "full" }],
  ])("%s on 1000 bytes", (header, expected) => {
    expect(parseRanges(header, 1000, 10)).toEqual(expected);
  });

  it("keeps several ranges in the order asked: start, middle, end and suffix", () => {
    expect(parseRanges("bytes=0-9, 500-599,990-, -5", 1000, 10)).toEqual({
      kind: "partial",
      ranges: [
        { start: 0, end: 9 },
        { start: 500, end: 599 },
        { start: 990, end: 999 },
      ],
    });
    // Adjacent ranges stay apart (a part per range asked); unsatisfiable ones are left out.
    expect(parseRanges("bytes=20-29,10-19,2000-3000", 1000, 10)).toEqual({
      kind: "partial",
      ranges: [
        { start: 20, end: 29 },
        { start: 10, end: 19 },
      ],
    });
  });

  it("merges overlapping ranges into the earliest, even through a chain", () => {
    expect(parseRanges("bytes=100-199,0-9,150-250,5-20,240-300", 1000, 10)).toEqual({
      kind: "partial",
      ranges: [
        { start: 100, end: 300 },
        { start: 0, end: 20 },
      ],
    });
    expect(parseRanges("bytes=0-9,20-29,5-25", 1000, 10)).toEqual(one(0, 29));
  });

  it("answers a request for more ranges than allowed with the whole file", () => {
    const many = Array.from({ length: 11 }, (_, index) => `${index * 10}-${index * 10 + 1}`);
    expect(parseRanges(`bytes=${many.join(",")}`, 1000, 10)).toEqual({ kind: "full" });
    expect(parseRanges(`bytes=${many.slice(0, 10).join(",")}`, 1000, 10)).toMatchObject({
      kind: "partial",
    });
  });
});
