/**
 * Runs due jobs in this process: polls the jobs table, and runs at once when this process has
 * just enqueued something (`kick`). Several processes may run workers on one PostgreSQL.
 */
import type { Database } from "../db";
import type { JobRow } from "../db/schema";
import type { Logger } from "../logger";
import { claimDueJobs, completeJob, failJob } from "./queue.server";

export type JobHandler = (payload: Record<string, unknown>, job: JobRow) => Promise<void>;

/** A failure that retrying cannot fix (bad payload, a record that no longer exists). */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/** Claims and runs one batch of due jobs; returns how many ran. */
export async function runDueJobs(
  database: Database,
  handlers: Readonly<Record<string, JobHandler>>,
  options: { limit?: number; log?: Logger } = {},
): Promise<number> {
  const claimed = await claimDueJobs(database, options.limit ?? 10);
  for (const job of claimed) {
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind "${job.kind}"`);
      await handler(job.payload as Record<string, unknown>, job);
      await completeJob(database, job);
    } catch (error) {
      options.log?.warn({ err: error, job: { id: job.id, kind: job.kind } }, "job failed");
      await failJob(database, job, error, { permanent: error instanceof PermanentJobError });
    }
  }
  return claimed.length;
}

export interface Worker {
  /** Look for due jobs now instead of at the next poll. */
  kick(): void;
  /** Stops polling and waits for the batch in hand. */
  stop(): Promise<void>;
}

export function startWorker(options: {
  database: () => Database;
  handlers: Readonly<Record<string, JobHandler>>;
  pollMs?: number;
  log: Logger;
}): Worker {
  const pollMs = options.pollMs ?? 1000;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
    timer.unref();
  };

  function tick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      let ran = 0;
      try {
        ran = await runDueJobs(options.database(), options.handlers, { log: options.log });
      } catch (error) {
        options.log.error({ err: error }, "job worker: could not claim jobs");
      } finally {
        running = undefined;
      }
      // A full batch or a kick while busy: there may be more waiting.
      const more = again || ran > 0;
      again = false;
      schedule(more ? 0 : pollMs);
    })();
  }

  schedule(0);
  return {
    kick: () => schedule(0),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
