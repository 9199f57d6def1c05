import type * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";

// Every comparison metricsAccess makes is recorded: its inputs must not depend on the token's length.
const compared: [number, number][] = [];
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  const timingSafeEqual: typeof actual.timingSafeEqual = (a, b) => {
    compared.push([a.byteLength, b.byteLength]);
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, default: { ...actual, timingSafeEqual }, timingSafeEqual };
});

const TOKEN = "metrics-token-0123456789-abcdefghij";
vi.stubEnv("METRICS_TOKEN", TOKEN);
vi.stubEnv("METRICS_ALLOWED_IPS", "");
const { metricsAccess } = await import("./metrics.server");

describe("/metrics access", () => {
  it("also: /metrics compares token digests, so a wrong token's length tells nothing", () => {
    for (const given of ["x", TOKEN.slice(0, -1), `${TOKEN}-longer`, "y".repeat(TOKEN.length)]) {
      compared.length = 0;
      expect(metricsAccess(`Bearer ${given}`, "203.0.113.9"), given).toBe("refused");
      // One comparison of two SHA-256 digests, whatever the length given.
      expect(compared, given).toEqual([[32, 32]]);
    }
    compared.length = 0;
    expect(metricsAccess(`Bearer ${TOKEN}`, "203.0.113.9")).toBe("allowed");
    expect(compared).toEqual([[32, 32]]);
  });
});
