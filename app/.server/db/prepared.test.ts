/**
 * Prepared statements (decision 0032): the same rows on both engines, and on PGlite, where values
 * are written into `EXECUTE` as literals, no value can end its literal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractEngines } from "../../../tests/support/engines";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { engineOf, literal, prepared } from "./prepared";
import { rateLimitHits } from "./schema";

describe("a literal for EXECUTE", () => {
  it("quotes as node-postgres' escapeLiteral does", () => {
    expect(literal("plain")).toBe("'plain'");
    expect(literal("it's")).toBe("'it''s'");
    expect(literal("back\\slash'")).toBe("E'back\\\\slash'''");
    expect(literal(60)).toBe("'60'");
    expect(literal(new Date("2026-01-02T03:04:05.678Z"))).toBe("'2026-01-02T03:04:05.678Z'");
    expect(() => literal(Number.NaN)).toThrow(/finite/);
  });
});

const echo = prepared<{ text: string; seconds: number; at_ms: number }>(
  "prepared_test_echo",
  ["text", "float8", "timestamptz"],
  "select $1::text as text, $2::float8 as seconds, (extract(epoch from $3) * 1000)::float8 as at_ms",
);

describe.each(contractEngines("prepared statements"))("prepared statements on $name", (engine) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase({ engine });
  });
  afterAll(async () => {
    await test?.close();
  });

  it("knows its engine", () => {
    expect(engineOf(test.db)).toBe(engine.name);
  });

  it("gives back every value as sent, whatever it holds", async () => {
    const at = new Date("2026-11-24T05:30:00.123Z");
    const values = [
      "",
      "it's",
      "'); drop table rate_limit_hits; --",
      "\\'; select 1; --",
      "E'\\x00'",
      "$1 $$ dollar $$",
      "ünïcödé ✓",
    ];
    // The first calls at once: the statement is prepared once.
    const rows = await Promise.all(values.map((value) => echo.run(test.db, [value, 1.5, at])));
    expect(rows.map((found) => found[0]?.text)).toEqual(values);
    expect(rows.map((found) => found[0]?.seconds)).toEqual(values.map(() => 1.5));
    expect(rows[0]?.[0]?.at_ms).toBe(at.getTime());
    // The table named in one of them is still there.
    expect(await test.db.$count(rateLimitHits)).toBe(0);
  });

  it("refuses a wrong number of values", async () => {
    await expect(echo.run(test.db, ["only one"])).rejects.toThrow(/takes 3 values/);
  });
});
