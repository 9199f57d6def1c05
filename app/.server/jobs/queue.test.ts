import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { jobs } from "../db/schema";
import { claimDueJobs, enqueueJob, retryDelaySeconds } from "./queue.server";
import { PermanentJobError, runDueJobs } from "./worker.server";

describe("the jobs table", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(() => test.close());
  beforeEach(async () => {
    await test.db.delete(jobs);
  });

  it("enqueues the same work once per dedupe key", async () => {
    expect(await enqueueJob(test.db, { kind: "k", dedupeKey: "once" })).toBe(true);
    expect(await enqueueJob(test.db, { kind: "k", dedupeKey: "once" })).toBe(false);
    expect(await enqueueJob(test.db, { kind: "k" })).toBe(true);
    expect(await enqueueJob(test.db, { kind: "k" })).toBe(true);
    expect(await test.db.select().from(jobs)).toHaveLength(3);
  });

  it("leases a claimed job so no second claim takes it, and ignores jobs not yet due", async () => {
    await enqueueJob(test.db, { kind: "k", dedupeKey: "now" });
    await enqueueJob(test.db, {
      kind: "k",
      dedupeKey: "later",
      runAt: new Date(Date.now() + 60_000),
    });
    const first = await claimDueJobs(test.db, 10);
    expect(first.map((job) => job.dedupeKey)).toEqual(["now"]);
    expect(first[0]?.attempts).toBe(1);
    expect(await claimDueJobs(test.db, 10)).toEqual([]);
    // An expired lease (a worker that died) makes the job claimable again.
    await test.db.update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` });
    expect((await claimDueJobs(test.db, 10)).map((job) => job.attempts)).toEqual([2]);
  });

  it("completes, retries with backoff, and gives up on permanent failures", async () => {
    await enqueueJob(test.db, { kind: "ok", dedupeKey: "a" });
    await enqueueJob(test.db, { kind: "flaky", dedupeKey: "b" });
    await enqueueJob(test.db, { kind: "broken", dedupeKey: "c" });
    await enqueueJob(test.db, { kind: "unknown", dedupeKey: "d" });
    const seen: string[] = [];
    const ran = await runDueJobs(test.db, {
      ok: async (payload, job) => void seen.push(`ok:${job.attempts}:${JSON.stringify(payload)}`),
      flaky: async () => {
        throw new Error("try later");
      },
      broken: async () => {
        throw new PermanentJobError("bad payload");
      },
    });
    expect(ran).toBe(4);
    expect(seen).toEqual(["ok:1:{}"]);
    const byKey = Object.fromEntries(
      (await test.db.select().from(jobs)).map((job) => [job.dedupeKey, job]),
    );
    expect(byKey.a?.completedAt).toBeInstanceOf(Date);
    expect(byKey.b?.completedAt).toBeNull();
    expect(byKey.b?.failedAt).toBeNull();
    expect(byKey.b?.lastError).toBe("try later");
    expect(byKey.b!.runAt.getTime()).toBeGreaterThan(Date.now() + 3_000);
    expect(byKey.c?.failedAt).toBeInstanceOf(Date);
    expect(byKey.d?.failedAt).toBeInstanceOf(Date);
    expect(byKey.d?.lastError).toMatch(/no handler/);
  });

  it("stops retrying after the last attempt", async () => {
    await enqueueJob(test.db, { kind: "flaky", dedupeKey: "x", maxAttempts: 2 });
    const flaky = { flaky: async () => Promise.reject(new Error("down")) };
    await runDueJobs(test.db, flaky);
    await test.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.dedupeKey, "x"));
    await runDueJobs(test.db, flaky);
    const [job] = await test.db.select().from(jobs).where(eq(jobs.dedupeKey, "x"));
    expect(job?.attempts).toBe(2);
    expect(job?.failedAt).toBeInstanceOf(Date);
  });

  it("backs off exponentially up to an hour", () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([5, 10, 20, 40]);
    expect(retryDelaySeconds(30)).toBe(3600);
  });
});
