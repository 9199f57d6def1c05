import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inRollout, rolloutBucket } from "./rollout";

describe("rollout buckets", () => {
  it("puts every id in [0, 100) and the same id always in the same bucket", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (id, version) => {
        const bucket = rolloutBucket(id, version);
        expect(bucket).toBeGreaterThanOrEqual(0);
        expect(bucket).toBeLessThan(100);
        expect(rolloutBucket(id, version)).toBe(bucket);
      }),
    );
  });

  it("only adds clients when the percentage grows", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (id, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          if (inRollout(id, "1.0.0", low)) expect(inRollout(id, "1.0.0", high)).toBe(true);
        },
      ),
    );
  });

  it("reaches about the share asked for, 0 % nobody and 100 % everybody", () => {
    const ids = Array.from({ length: 10_000 }, (_, index) => `client-${index}`);
    const share = (percent: number) =>
      ids.filter((id) => inRollout(id, "2.0.0", percent)).length / ids.length;
    expect(share(0)).toBe(0);
    expect(share(100)).toBe(1);
    expect(share(10)).toBeGreaterThan(0.085);
    expect(share(10)).toBeLessThan(0.115);
    expect(share(50)).toBeGreaterThan(0.47);
    expect(share(50)).toBeLessThan(0.53);
  });
});
