/**
 * The embedded database's buffer pool (decision 0042): PostgreSQL's 128 MB default lives in
 * PGlite's WebAssembly memory and is zeroed at every open, so it alone kept the idle site's
 * memory about 300 MB higher and made each open slower.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { embeddedEngine } from "../../../tests/support/engines";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { EMBEDDED_SHARED_BUFFERS } from "./embedded";

let test: TestDatabase;
beforeAll(async () => {
  test = await openTestDatabase({ engine: embeddedEngine() });
});
afterAll(async () => {
  await test?.close();
});

it("runs PGlite with a 16 MB buffer pool, and PostgreSQL's other settings as they were", async () => {
  const show = async (setting: string) =>
    (
      (await test.db.execute(sql.raw(`show ${setting}`))) as unknown as {
        rows: Record<string, string>[];
      }
    ).rows[0]?.[setting];
  expect(EMBEDDED_SHARED_BUFFERS).toBe("16MB");
  expect(await show("shared_buffers")).toBe("16MB");
  // PGlite's own start parameters still apply (they are added to, not replaced).
  expect(await show("max_worker_processes")).toBe("0");
  expect(await show("search_path")).toBe("public");
});
