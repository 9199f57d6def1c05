/** This process's job worker (off with JOBS_WORKER=false: then other instances run the jobs). */
import { db } from "../db";
import { env } from "../env";
import type { Logger } from "../logger";
import { scheduleAlertDigest, scheduleAlertSweep } from "../alerts/jobs.server";
import { scheduleBackup } from "../backup/jobs.server";
import { scheduleRollup } from "../analytics/rollup.server";
import { schedulePrune } from "./maintenance.server";
import { jobDefinitions } from "./registry.server";
import { startWorker, type Worker } from "./worker.server";

let worker: Worker | undefined;

export function startJobWorker(log: Logger): void {
  if (worker) return;
  worker = startWorker({
    database: db,
    definitions: jobDefinitions(),
    leaseSeconds: env().JOBS_LEASE_SECONDS,
    log,
  });
  // Starts (or re-joins) the hourly prune chain; the dedupe key keeps it to one job per hour.
  schedulePrune(db()).catch((error: unknown) =>
    log.warn({ err: error }, "could not schedule the hourly prune"),
  );
  scheduleRollup(db()).catch((error: unknown) =>
    log.warn({ err: error }, "could not schedule the hourly analytics roll-up"),
  );
  scheduleAlertSweep(db()).catch((error: unknown) =>
    log.warn({ err: error }, "could not schedule the alerts' sweep"),
  );
  scheduleAlertDigest(db()).catch((error: unknown) =>
    log.warn({ err: error }, "could not schedule the alerts' daily digest"),
  );
  scheduleBackup(db()).catch((error: unknown) =>
    log.warn({ err: error }, "could not schedule the next backup"),
  );
}

/** Work was just enqueued here: run it now rather than at the next poll. */
export function kickJobs(): void {
  worker?.kick();
}

export async function stopJobWorker(): Promise<void> {
  const running = worker;
  worker = undefined;
  await running?.stop();
}
