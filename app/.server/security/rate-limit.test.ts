/**
 * The API rate limit as a fast answer uses it (decision 0032): its middleware is known by its
 * group, lets through a request a fast answer already counted, and a read counts before it reads
 * (in this process, without a write: decision 0068), never past the limit.
 */
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contractEngines } from "../../../tests/support/engines";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { logger } from "../logger";
import { requestContext } from "../request-context";
import { apiRateLimit, apiRateLimitGroup, countApiRequest, countedRead } from "./rate-limit.server";
import { resetWindows } from "./shared-windows.server";

vi.stubEnv("API_RATE_LIMIT", "3");

describe("the API rate limit's middleware", () => {
  it("is known by its group, and nothing else is", () => {
    expect(apiRateLimitGroup(apiRateLimit("desktop"))).toBe("desktop");
    expect(apiRateLimitGroup(() => {})).toBeUndefined();
    expect(apiRateLimitGroup("desktop")).toBeUndefined();
  });

  it("lets a request a fast answer counted through without counting it again", async () => {
    const context = new RouterContextProvider();
    context.set(requestContext, {
      requestId: "r",
      contentSecurityPolicy: () => "",
      clientIp: "203.0.113.9",
      log: logger(),
      countedRateLimits: new Set(["desktop"]),
    });
    const next = vi.fn(async () => new Response("next"));
    // No database is open here: counting would throw.
    const response = await apiRateLimit("desktop")(
      { context, request: new Request("http://x/"), params: {} } as never,
      next,
    );
    expect(next).toHaveBeenCalledOnce();
    expect(await (response as Response).text()).toBe("next");
  });
});

const read = countedRead<{ value: string }>(
  "rate_limit_test_read",
  ["text"],
  "select value from (values ('a'), ('b')) v(value) where value >= $1",
);

describe.each(contractEngines("rate limits"))(
  "a read that counts an API request on $name",
  (engine) => {
    let test: TestDatabase;
    beforeAll(async () => {
      // Each engine's run starts with no counts in this process (they are kept in memory).
      resetWindows();
      test = await openTestDatabase({ engine });
    });
    afterAll(async () => {
      await test?.close();
    });

    it("counts once per call and reads, until the limit; then reads nothing", async () => {
      const counted: string[] = [];
      const count = {
        groups: ["read-test"],
        clientIp: "198.51.100.7",
        onCounted: counted.push.bind(counted),
      };
      const first = await read.run(test.db, ["a"], count);
      expect(first.rows.map((row) => row.value)).toEqual(["a", "b"]);
      expect(first.limit).toMatchObject({ allowed: true, count: 1 });
      // Finding nothing is counted too.
      const none = await read.run(test.db, ["z"], count);
      expect(none).toMatchObject({ rows: [], limit: { allowed: true, count: 2 } });
      // The same count as the middleware's.
      expect(await countApiRequest("read-test", "198.51.100.7", test.db)).toMatchObject({
        count: 3,
      });
      const refused = await read.run(test.db, ["a"], count);
      expect(refused.rows).toEqual([]);
      expect(refused.limit).toMatchObject({ allowed: false, count: 4 });
      expect(refused.limit!.retryAfter).toBeGreaterThan(0);
      expect(counted).toEqual(["read-test", "read-test", "read-test"]);
      // Another client has its own count; no count asked, none made.
      const other = await read.run(test.db, ["b"], { ...count, clientIp: "198.51.100.8" });
      expect(other).toMatchObject({ rows: [{ value: "b" }], limit: { count: 1 } });
      expect(await read.run(test.db, ["b"])).toEqual({ limit: null, rows: [{ value: "b" }] });
    });

    it("counts every group, outermost first, and stops at the first refusal", async () => {
      const counted: string[] = [];
      const count = {
        groups: ["outer-test", "inner-test"],
        clientIp: "192.0.2.1",
        onCounted: counted.push.bind(counted),
      };
      for (let i = 0; i < 3; i++) await countApiRequest("outer-test", "192.0.2.1", test.db);
      const refused = await read.run(test.db, ["a"], count);
      expect(refused).toMatchObject({ rows: [], limit: { allowed: false } });
      expect(counted).toEqual(["outer-test"]);
    });
  },
);
