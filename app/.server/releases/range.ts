/**
 * The byte ranges of a Range header (RFC 9110 §14), as update clients send them: one range to
 * resume a download, or many in one request (electron-updater's differential download asks for
 * the changed blocks of an installer that way, and takes nothing but `206 multipart/byteranges`).
 */

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export type RangeResult =
  { kind: "full" } | { kind: "partial"; ranges: ByteRange[] } | { kind: "unsatisfiable" };

const SPEC = /^\s*(\d*)\s*-\s*(\d*)\s*$/;

/**
 * The ranges of `header` over a file of `size` bytes, in the order asked, overlapping ones merged
 * (the RFC allows it; updaters never ask for overlapping ranges, and a part per asked range is
 * what their parsers count). The whole file when there is no header, it is malformed (which the
 * RFC says to ignore), or it asks for more than `maxRanges` ranges (the documented answer to an
 * abusive request: the file, once); 416 when no range is satisfiable.
 */
export function parseRanges(header: string | null, size: number, maxRanges: number): RangeResult {
  if (!header) return { kind: "full" };
  const match = /^bytes=(.+)$/i.exec(header.trim());
  if (!match?.[1]) return { kind: "full" };
  const specs = match[1].split(",");
  if (specs.length > maxRanges) return { kind: "full" };
  const ranges: ByteRange[] = [];
  for (const spec of specs) {
    const parts = SPEC.exec(spec);
    if (!parts) return { kind: "full" };
    const [, first = "", last = ""] = parts;
    if (first === "" && last === "") return { kind: "full" };
    const range =
      first === ""
        ? // A suffix range: the last N bytes.
          Number(last) === 0 || size === 0
          ? null
          : { start: Math.max(0, size - Number(last)), end: size - 1 }
        : Number(first) >= size || (last !== "" && Number(last) < Number(first))
          ? null
          : {
              start: Number(first),
              end: last === "" ? size - 1 : Math.min(Number(last), size - 1),
            };
    if (range) ranges.push(range);
  }
  if (ranges.length === 0) return { kind: "unsatisfiable" };
  return { kind: "partial", ranges: mergeOverlapping(ranges) };
}

/**
 * Ranges that overlap earlier ones are merged into the earliest of them; the order asked is kept
 * otherwise. The kept ranges never overlap one another, so a range's union with those it overlaps
 * is one interval that overlaps no other kept range.
 */
function mergeOverlapping(ranges: readonly ByteRange[]): ByteRange[] {
  const merged: ByteRange[] = [];
  for (const range of ranges) {
    const overlapping = merged.filter((kept) => kept.start <= range.end && range.start <= kept.end);
    const [target, ...others] = overlapping;
    if (!target) {
      merged.push({ ...range });
      continue;
    }
    target.start = Math.min(range.start, ...overlapping.map((kept) => kept.start));
    target.end = Math.max(range.end, ...overlapping.map((kept) => kept.end));
    for (const other of others) merged.splice(merged.indexOf(other), 1);
  }
  return merged;
}
