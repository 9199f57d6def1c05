/**
 * Batched counters against a real database: a batch adds to what is stored (never overwrites),
 * two writers flushing overlapping keys at once both count, and a failed write keeps its counts
 * for the next flush.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines } from "../../../tests/support/engines";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { type Database } from "../db";
import { releaseAssets, releases } from "../db/schema";
import {
  addAppVersion,
  addAssetDownload,
  addReleaseEvent,
  type CounterBatch,
  emptyBatch,
  mergeBatch,
  type ReleaseEvent,
} from "./counter-batch";
import {
  closeCounters,
  countAppVersion,
  countReleaseEvent,
  flushCounters,
} from "./counters.server";
import {
  activeVersionShare,
  countsPerVersion,
  downloadsPerDay,
  writeCounterBatch,
} from "./stats.server";

const NOW = new Date("2020-03-10T06:00:00Z");
const check = (version: string, platform = "mac"): ReleaseEvent => ({
  version,
  platform,
  arch: "any",
  channel: "stable",
  event: "update_check",
});
const download = (version: string): ReleaseEvent => ({ ...check(version), event: "download" });

describe("a counter batch", () => {
  it("sums per key and per India day, and merges back without losing a count", () => {
    const batch = emptyBatch();
    for (let i = 0; i < 3; i++) addReleaseEvent(batch, check("1.0.0"), NOW);
    addReleaseEvent(batch, check("1.0.0", "windows"), NOW);
    // 20:00 UTC is already the next day in India.
    addReleaseEvent(batch, check("1.0.0"), new Date("2020-03-10T20:00:00Z"));
    addAppVersion(batch, { version: "0.9.0", platform: "mac" }, NOW);
    addAppVersion(batch, { version: "0.9.0", platform: "mac" }, NOW);
    addAssetDownload(batch, "asset-1");
    expect(
      [...batch.releaseEvents.values()].map((row) => [row.day, row.platform, row.count]),
    ).toEqual([
      ["2020-03-10", "mac", 3],
      ["2020-03-10", "windows", 1],
      ["2020-03-11", "mac", 1],
    ]);
    const into = emptyBatch();
    addReleaseEvent(into, check("1.0.0"), NOW, 2);
    mergeBatch(into, batch);
    mergeBatch(into, batch);
    const counts = (b: CounterBatch) => ({
      events: [...b.releaseEvents.values()].map((row) => `${row.day} ${row.platform} ${row.count}`),
      versions: [...b.appVersions.values()].map((row) => `${row.day} ${row.version} ${row.count}`),
      assets: [...b.assetDownloads.entries()],
    });
    expect(counts(into)).toEqual({
      events: ["2020-03-10 mac 8", "2020-03-10 windows 2", "2020-03-11 mac 2"],
      versions: ["2020-03-10 0.9.0 4"],
      assets: [["asset-1", 2]],
    });
  });
});

describe.each(engines())("batched counters on $name", (engine) => {
  let test: TestDatabase;
  let other: TestDatabase;
  let assetId = "";
  let databaseUrl: string | undefined;
  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    test = await openTestDatabase({ databaseUrl });
    // A second instance's connections on the same PostgreSQL (PGlite has one process only).
    other = databaseUrl ? await openTestDatabase({ databaseUrl }) : test;
    const [release] = await test.db
      .insert(releases)
      .values({ version: "1.0.0", channel: "stable", status: "published" })
      .returning();
    const [asset] = await test.db
      .insert(releaseAssets)
      .values({
        releaseId: release!.id,
        platform: "mac",
        fileName: "Pinout-1.0.0.dmg",
        sizeBytes: 10,
        sha256: "0".repeat(64),
        storageKey: "1.0.0/Pinout-1.0.0.dmg",
      })
      .returning();
    assetId = asset!.id;
  });
  afterAll(async () => {
    await closeCounters(test.db);
    if (other !== test) await other.close();
    await test.close();
  });

  const stored = async (database: Database = test.db) => {
    const perVersion = await countsPerVersion(database);
    const [asset] = await database.select().from(releaseAssets);
    return { ...perVersion.get("1.0.0"), assetDownloads: asset?.downloadCount };
  };

  it("adds each batch to the stored counts", async () => {
    for (let round = 0; round < 2; round++) {
      const batch = emptyBatch();
      for (let i = 0; i < 5; i++) addReleaseEvent(batch, check("1.0.0"), NOW);
      addReleaseEvent(batch, download("1.0.0"), NOW, 3);
      addAssetDownload(batch, assetId, 3);
      await writeCounterBatch(batch, test.db);
    }
    expect(await stored()).toEqual({ updateChecks: 10, downloads: 6, assetDownloads: 6 });
  });

  it("counts every row when two instances flush overlapping keys at the same time", async () => {
    const before = await stored();
    // Same keys, added in opposite orders: each writer sorts its rows, so neither deadlocks.
    const versions = ["1.0.0", "0.9.0", "0.8.0", "0.7.0"];
    const batches = [versions, [...versions].reverse()].map((order) => {
      const batch = emptyBatch();
      for (const version of order) addReleaseEvent(batch, check(version), NOW, 7);
      addAssetDownload(batch, assetId, 2);
      return batch;
    });
    const writers = [test.db, other.db];
    for (let round = 0; round < 5; round++)
      await Promise.all(batches.map((batch, index) => writeCounterBatch(batch, writers[index]!)));
    const after = await stored(other.db);
    expect(after.updateChecks).toBe((before.updateChecks ?? 0) + 2 * 5 * 7);
    expect(after.assetDownloads).toBe((before.assetDownloads ?? 0) + 2 * 5 * 2);
    const perVersion = await countsPerVersion(test.db);
    expect(perVersion.get("0.7.0")?.updateChecks).toBe(70);
  });

  it("writes what was counted in memory only when flushed, and keeps it when a write fails", async () => {
    const before = await stored();
    for (let i = 0; i < 25; i++) {
      countReleaseEvent(check("1.0.0"));
      countReleaseEvent(download("1.0.0"));
      countAppVersion("0.5.0", "mac");
    }
    expect(await stored()).toEqual(before);

    const broken = await openTestDatabase({ databaseUrl });
    await broken.close();
    await expect(flushCounters(broken.db)).rejects.toThrow();
    expect(await stored()).toEqual(before);

    expect(await flushCounters(test.db)).toBe(true);
    expect(await flushCounters(test.db)).toBe(false);
    const after = await stored();
    expect(after.updateChecks).toBe((before.updateChecks ?? 0) + 25);
    expect(after.downloads).toBe((before.downloads ?? 0) + 25);
    const versions = await activeVersionShare(test.db);
    expect(versions.find((row) => row.version === "0.5.0")?.count).toBe(25);
    const days = await downloadsPerDay(30, test.db);
    expect(days.reduce((sum, day) => sum + day.downloads, 0)).toBe(25);
  });
});
