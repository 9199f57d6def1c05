/**
 * The releases kept in memory for the feeds: read once, read again the moment a change is
 * announced, and never kept when a change arrived while they were being read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { releases, updatePolicies } from "../db/schema";
import { setMinimumVersion } from "./policy.server";
import { releasesChanged } from "./queries.server";
import { builtOnce, candidatesOf, releaseSnapshot } from "./release-cache.server";

describe("the release snapshot", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test.close();
  });

  const versions = async () => (await releaseSnapshot(test.db)).published.map((r) => r.version);
  const publish = (version: string, channel: "stable" | "beta" = "stable") =>
    test.db.insert(releases).values({ version, channel, status: "published" });

  it("is read once, and again only after a change is announced", async () => {
    await publish("1.0.0");
    const first = await releaseSnapshot(test.db);
    expect(first.published.map((r) => r.version)).toEqual(["1.0.0"]);
    // Written without telling anyone: polls keep answering from memory.
    await publish("1.1.0");
    await test.db.insert(releases).values({ version: "9.0.0", status: "draft" });
    expect(await releaseSnapshot(test.db)).toBe(first);
    await releasesChanged(test.db);
    expect(await versions()).toEqual(["1.1.0", "1.0.0"]);
  });

  it("gives each channel its releases, beta taking stable too", async () => {
    await publish("2.0.0-beta.1", "beta");
    await releasesChanged(test.db);
    const snapshot = await releaseSnapshot(test.db);
    expect(candidatesOf(snapshot, "stable").map((r) => r.version)).toEqual(["1.1.0", "1.0.0"]);
    expect(candidatesOf(snapshot, "beta").map((r) => r.version)).toEqual([
      "2.0.0-beta.1",
      "1.1.0",
      "1.0.0",
    ]);
  });

  it("does not keep a read that a change overtook", async () => {
    await releasesChanged(test.db);
    const reading = releaseSnapshot(test.db);
    // Announced while the read runs: what it returns may predate the change.
    void releasesChanged(test.db);
    await reading;
    // Had the overtaken read been kept, this (unannounced) release would stay unseen.
    await publish("1.2.0");
    expect(await versions()).toContain("1.2.0");
  });

  it("forgets what was built from it, and learns a new minimum version at once", async () => {
    const snapshot = await releaseSnapshot(test.db);
    let builds = 0;
    const build = () => (builds += 1);
    builtOnce(snapshot, "feed", build);
    builtOnce(snapshot, "feed", build);
    expect(builds).toBe(1);

    expect(snapshot.minimums).toEqual({});
    await setMinimumVersion("mac", "1.1.0", test.db);
    const next = await releaseSnapshot(test.db);
    expect(next.minimums).toEqual({ mac: "1.1.0" });
    builtOnce(next, "feed", build);
    expect(builds).toBe(2);
    await setMinimumVersion("mac", null, test.db);
    expect((await releaseSnapshot(test.db)).minimums).toEqual({});
    expect(await test.db.select().from(updatePolicies)).toEqual([]);
  });
});
