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
import { setJobKick } from "./kick";

let worker: Worker | undefined;

export function startJobWorker(log: Logger): void {
  if (worker) return;
  worker = startWorker({
    database: db,
    definitions: jobDefinitions(),
    leaseSeconds: env().JOBS_LEASE_SECONDS,
    log,
  });
  const started = worker;
  setJobKick(() => started.kick());
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

export async function stopJobWorker(): Promise<void> {
  const running = worker;
  worker = undefined;
  setJobKick(undefined);
  await running?.stop();
}
