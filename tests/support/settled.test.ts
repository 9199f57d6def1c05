/**
 * `jobsSettled` (waitUntilSettled over the site's job queue) is what every "exactly once"
 * assertion waits on instead of a sleep. These tests run a real job worker on a real (embedded)
 * database and show that a count taken after it sees a duplicate that arrives late, that it
 * waits for work due a moment later, that it gives up with what is still running, and that a
 * lane can be waited on alone.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { jobs } from "~/.server/db/schema";
import { enqueue, type JobDefinition } from "~/.server/jobs/define";
import { unsettledJobCount } from "~/.server/jobs/queue.server";
import { startWorker, type Worker } from "~/.server/jobs/worker.server";
import type { Logger } from "~/.server/logger";
import { waitUntilSettled } from "./site";
import { openTestDatabase, type TestDatabase } from "./test-database";

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;

/** Resolves after `ms`, or at once when the job's signal aborts (the worker stopping). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

describe("jobsSettled", () => {
  let test: TestDatabase;
  let worker: Worker | undefined;
  const runs: number[] = [];

  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    runs.length = 0;
    await test.db.delete(jobs);
  });
  afterAll(() => test.close());

  const payload = z.object({ n: z.number(), lateMs: z.number().optional() }).strict();

  /**
   * A mail-like job: the first copy, while it runs, causes a second one (as a webhook delivered
   * again would) `lateMs` after it started, due at once or a moment later.
   */
  const deliver: JobDefinition<typeof payload> = {
    name: "test.deliver",
    lane: "mail",
    payload,
    timeoutMs: 10_000,
    maxAttempts: 1,
    async handler({ n, lateMs }, { signal }) {
      runs.push(n);
      if (n !== 1 || lateMs === undefined) return;
      await pause(lateMs, signal);
      await enqueue(test.db, deliver, { n: 2 });
    },
  };
  const dueSoon: JobDefinition<typeof payload> = {
    ...deliver,
    name: "test.due-soon",
    async handler({ n }) {
      runs.push(n);
      if (n === 1) {
        await enqueue(test.db, dueSoon, { n: 2 }, { runAt: new Date(Date.now() + 400) });
      }
    },
  };
  const hangs: JobDefinition<typeof payload> = {
    ...deliver,
    name: "test.hangs",
    lane: "maintenance",
    async handler(_payload, { signal }) {
      await pause(60_000, signal);
    },
  };

  const start = (...definitions: JobDefinition[]) => {
    worker = startWorker({
      database: () => test.db,
      definitions: [deliver, dueSoon, hangs, ...definitions] as JobDefinition[],
      pollMs: 50,
      log: quiet,
    });
    worker.kick();
  };
  const probe = () => ({
    unsettledJobs: (filter: { kinds?: readonly string[]; withinMs: number }) =>
      unsettledJobCount(test.db, filter),
  });

  it("counts a duplicate that arrives late: an exactly-once assertion after it fails", async () => {
    await enqueue(test.db, deliver, { n: 1, lateMs: 600 });
    start();
    await waitUntilSettled(probe());
    // The second copy came 600 ms into the first: a count after a short sleep would have seen one.
    expect(runs).toEqual([1, 2]);
    expect(() => expect(runs).toHaveLength(1)).toThrow();
  });

  it("waits for work due within the horizon, not only work due now", async () => {
    await enqueue(test.db, dueSoon, { n: 1 });
    start();
    await waitUntilSettled(probe());
    expect(runs).toEqual([1, 2]);
  });

  it("gives up after its time limit, saying what is still running", async () => {
    await enqueue(test.db, hangs, { n: 1 });
    start();
    await expect(waitUntilSettled(probe(), { timeoutMs: 500 })).rejects.toThrow(
      /jobs did not settle: 1 jobs running or due/,
    );
  });

  it("waits on one lane's kinds alone when asked", async () => {
    await enqueue(test.db, hangs, { n: 1 });
    await enqueue(test.db, deliver, { n: 1, lateMs: 300 });
    start();
    await waitUntilSettled(probe(), { kinds: [deliver.name] });
    expect(runs).toEqual([1, 2]);
    expect(await unsettledJobCount(test.db)).toBe(1);
  });
});
