import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { z } from "zod";
import { jobs, type JobRow } from "../db/schema";
import type { Logger } from "../logger";
import { enqueue, type JobDefinition, LANES } from "./define";
import { claimDueJobs, claimJob, enqueueJob, retryDelaySeconds } from "./queue.server";
import { PermanentJobError, runClaimedJob, runDueJobs, startWorker } from "./worker.server";

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

  /** A definition for tests: any lane, a handler, a short time limit. */
  const job = (
    name: string,
    handler: JobDefinition["handler"],
    more: Partial<JobDefinition> = {},
  ): JobDefinition => ({
    name,
    lane: "money",
    payload: z.object({ n: z.number().optional() }).strict(),
    timeoutMs: 5_000,
    maxAttempts: 10,
    handler,
    ...more,
  });

  it("completes, retries with backoff, and gives up on permanent failures", async () => {
    await enqueueJob(test.db, { kind: "ok", dedupeKey: "a" });
    await enqueueJob(test.db, { kind: "flaky", dedupeKey: "b" });
    await enqueueJob(test.db, { kind: "broken", dedupeKey: "c" });
    await enqueueJob(test.db, { kind: "unknown", dedupeKey: "d" });
    const seen: string[] = [];
    const ran = await runDueJobs(test.db, [
      job(
        "ok",
        async (payload, context) =>
          void seen.push(
            `ok:${context.job.attempts}:${JSON.stringify(payload)}:${context.idempotencyKey}`,
          ),
      ),
      job("flaky", async () => {
        throw new Error("try later");
      }),
      job("broken", async () => {
        throw new PermanentJobError("bad payload");
      }),
    ]);
    expect(ran).toBe(4);
    const byKey = Object.fromEntries(
      (await test.db.select().from(jobs)).map((row) => [row.dedupeKey, row]),
    );
    expect(seen).toEqual([`ok:1:{}:job-${byKey.a?.id}`]);
    expect(byKey.a?.completedAt).toBeInstanceOf(Date);
    expect(byKey.b?.completedAt).toBeNull();
    expect(byKey.b?.failedAt).toBeNull();
    expect(byKey.b?.lastError).toBe("try later");
    expect(byKey.b!.runAt.getTime()).toBeGreaterThan(Date.now() + 3_000);
    expect(byKey.c?.failedAt).toBeInstanceOf(Date);
    expect(byKey.d?.failedAt).toBeInstanceOf(Date);
    expect(byKey.d?.lastError).toMatch(/no definition for job kind "unknown"/);
  });

  it("fails a stored payload that no longer parses at once, saying why, and never runs it", async () => {
    await enqueueJob(test.db, { kind: "typed", dedupeKey: "bad", payload: { n: "seven" } });
    let ran = false;
    await runDueJobs(test.db, [job("typed", async () => void (ran = true))]);
    const [row] = await test.db.select().from(jobs).where(eq(jobs.dedupeKey, "bad"));
    expect(ran).toBe(false);
    expect(row?.attempts).toBe(1);
    expect(row?.failedAt).toBeInstanceOf(Date);
    expect(row?.lastError).toMatch(/stored payload does not match the job "typed": n: /);
  });

  it("enqueues through a definition, refusing a payload its schema refuses", async () => {
    const typed = job("typed", async () => {});
    expect(await enqueue(test.db, typed, { n: 1 }, { dedupeKey: "t1" })).toBe(true);
    expect(await enqueue(test.db, typed, { n: 1 }, { dedupeKey: "t1" })).toBe(false);
    await expect(enqueue(test.db, typed, { n: "x" } as never)).rejects.toThrow();
    const [row] = await test.db.select().from(jobs).where(eq(jobs.dedupeKey, "t1"));
    expect(row).toMatchObject({ kind: "typed", payload: { n: 1 }, maxAttempts: 10 });
  });

  it("aborts an attempt at its time limit and releases the job for a retry with back-off", async () => {
    await enqueueJob(test.db, { kind: "slow", dedupeKey: "slow" });
    let aborted: unknown;
    const started = Date.now();
    await runDueJobs(test.db, [
      job(
        "slow",
        (_payload, { signal }) =>
          new Promise<void>((resolve) => {
            signal.addEventListener("abort", () => {
              aborted = signal.reason;
              resolve();
            });
          }),
        { timeoutMs: 300 },
      ),
    ]);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(aborted).toBeInstanceOf(Error);
    const [row] = await test.db.select().from(jobs).where(eq(jobs.dedupeKey, "slow"));
    expect(row?.completedAt).toBeNull();
    expect(row?.failedAt).toBeNull();
    expect(row?.lockedUntil).toBeNull();
    expect(row?.lastError).toMatch(/timed out after 0 s/);
    expect(row!.runAt.getTime()).toBeGreaterThan(Date.now() + 3_000);
  });

  it("renews the lease of a job that outlasts it, so no other worker claims it meanwhile", async () => {
    await enqueueJob(test.db, { kind: "long", dedupeKey: "long" });
    const claimedByOther: (JobRow | null)[] = [];
    await runDueJobs(
      test.db,
      [
        job("long", async () => {
          for (let i = 0; i < 5; i++) {
            await new Promise((resolve) => setTimeout(resolve, 500));
            claimedByOther.push(await claimJob(test.db, { kinds: ["long"] }, 1));
          }
        }),
      ],
      { leaseSeconds: 1 },
    );
    // 2.5 s of work on a 1 s lease: renewed throughout, never claimed twice, completed once.
    expect(claimedByOther).toEqual([null, null, null, null, null]);
    const [row] = await test.db.select().from(jobs).where(eq(jobs.dedupeKey, "long"));
    expect(row?.attempts).toBe(1);
    expect(row?.completedAt).toBeInstanceOf(Date);
  });

  it("commits nothing for an attempt whose lease went to another worker", async () => {
    await enqueueJob(test.db, { kind: "stolen", dedupeKey: "stolen" });
    const [claimed] = await claimDueJobs(test.db, 1, 60);
    // Another worker took it over (this one stalled past its lease).
    await test.db
      .update(jobs)
      .set({ attempts: sql`attempts + 1` })
      .where(eq(jobs.dedupeKey, "stolen"));
    const outcome = await runClaimedJob(
      test.db,
      job("stolen", async (_payload, { signal }) => {
        // The renewal notices within a third of the lease and aborts.
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        expect(signal.aborted).toBe(true);
      }),
      claimed!,
      { leaseSeconds: 1 },
    );
    expect(outcome).toBe("lease-lost");
    const [row] = await test.db.select().from(jobs).where(eq(jobs.dedupeKey, "stolen"));
    expect(row?.completedAt).toBeNull();
    expect(row?.attempts).toBe(2);
  });

  it("runs money jobs while every mail slot is stuck", async () => {
    for (let i = 0; i < 4; i++)
      await enqueueJob(test.db, { kind: "stuck-mail", dedupeKey: `m${i}` });
    await enqueueJob(test.db, { kind: "webhook", dedupeKey: "w" });
    const release: (() => void)[] = [];
    let webhookDone = false;
    const silent = { warn() {}, error() {}, info() {} } as unknown as Logger;
    const worker = startWorker({
      database: () => test.db,
      pollMs: 50,
      log: silent,
      definitions: [
        job("stuck-mail", () => new Promise<void>((resolve) => release.push(resolve)), {
          lane: "mail",
          timeoutMs: 60_000,
        }),
        job("webhook", async () => void (webhookDone = true)),
      ],
    });
    try {
      // Both lanes settle: the webhook done, and the mail lane's slots all taken (the webhook may
      // finish before the mail lane's second claim, which was this test's race under load).
      const deadline = Date.now() + 5_000;
      while ((!webhookDone || release.length < LANES.mail.slots) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(webhookDone).toBe(true);
      // The mail lane took as many as it has slots, no more.
      expect(release).toHaveLength(LANES.mail.slots);
    } finally {
      release.forEach((resolve) => resolve());
      await worker.stop();
    }
  });

  it("stops after a claim under way, and starts nothing with a database closed behind it", async () => {
    await enqueueJob(test.db, { kind: "late", dedupeKey: "late" });
    let closed = false;
    let usedAfterClose = 0;
    let ran = false;
    const worker = startWorker({
      // The server closes its database once the worker has stopped (server/shutdown.ts).
      database: () => {
        if (closed) usedAfterClose += 1;
        return test.db;
      },
      pollMs: 60_000,
      log: { warn() {}, error() {}, info() {} } as unknown as Logger,
      definitions: [job("late", async () => void (ran = true))],
    });
    // startWorker claimed at once; stopping now must wait for that claim to be answered.
    await worker.stop();
    closed = true;
    // The claim was committed (the job's attempt counted) before stop() returned, or is now:
    // what its answer was going to start has started by the next round trip after that.
    for (let tries = 0; tries < 100; tries++) {
      const [row] = await test.db.select().from(jobs).where(eq(jobs.dedupeKey, "late"));
      if ((row?.attempts ?? 0) > 0) break;
    }
    await test.db.select().from(jobs);
    expect(usedAfterClose).toBe(0);
    expect(ran).toBe(false);
  });

  it("backs off exponentially up to an hour", () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([5, 10, 20, 40]);
    expect(retryDelaySeconds(30)).toBe(3600);
  });
});
