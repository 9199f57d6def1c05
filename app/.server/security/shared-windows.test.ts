/**
 * The API limits' windows (decision 0068): counted in the process without a write, and shared on
 * PostgreSQL by a sync that adds this process's unsent hits to the row and reads back everyone's.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { hitWindow, resetWindows, syncWindows } from "./shared-windows.server";

describe("the API limits' shared windows", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    resetWindows();
    await test?.close();
  });
  beforeEach(() => resetWindows());

  const stored = async (key: string) => {
    const result = await test.db.execute(sql`select count from rate_limit_hits where key = ${key}`);
    return (result as unknown as { rows: { count: number }[] }).rows[0]?.count ?? null;
  };

  it("decides from this process's count alone, and writes nothing until the sync", async () => {
    for (let hit = 1; hit <= 3; hit += 1)
      expect(hitWindow("updates:a", 3, 60, test.db)).toMatchObject({ allowed: true, count: hit });
    expect(hitWindow("updates:a", 3, 60, test.db)).toMatchObject({ allowed: false, count: 4 });
    expect(await stored("updates:a")).toBeNull();
    await syncWindows(test.db);
    expect(await stored("updates:a")).toBe(4);
  });

  it("adds what other processes counted, once a sync has read it", async () => {
    // Another process counted 5 in this window already.
    await test.db.execute(
      sql`insert into rate_limit_hits (key, count, window_start) values ('updates:b', 5, now())`,
    );
    expect(hitWindow("updates:b", 8, 60, test.db)).toMatchObject({ allowed: true, count: 1 });
    await syncWindows(test.db);
    expect(await stored("updates:b")).toBe(6);
    expect(hitWindow("updates:b", 8, 60, test.db)).toMatchObject({ allowed: true, count: 7 });
    expect(hitWindow("updates:b", 8, 60, test.db)).toMatchObject({ allowed: true, count: 8 });
    expect(hitWindow("updates:b", 8, 60, test.db)).toMatchObject({ allowed: false, count: 9 });
    // Hits made while a sync is on its way are sent by the next one, never twice.
    const syncing = syncWindows(test.db);
    hitWindow("updates:b", 8, 60, test.db);
    await syncing;
    await syncWindows(test.db);
    expect(await stored("updates:b")).toBe(10);
  });

  it("starts the shared row again when its window ended, and keeps the embedded count apart", async () => {
    await test.db.execute(
      sql`insert into rate_limit_hits (key, count, window_start)
          values ('updates:c', 50, now() - interval '2 minutes')`,
    );
    hitWindow("updates:c", 8, 60, test.db);
    await syncWindows(test.db);
    expect(await stored("updates:c")).toBe(1);
    expect(hitWindow("updates:c", 8, 60, test.db)).toMatchObject({ count: 2 });
    // Without a database to share through (the embedded one), nothing is ever written.
    hitWindow("updates:d", 8, 60, null);
    await syncWindows(test.db);
    expect(await stored("updates:d")).toBeNull();
  });
});
