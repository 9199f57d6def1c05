/**
 * Runs due jobs in this process, lane by lane: each lane claims one job per free slot, so a lane
 * whose jobs hang (a mail server that stops answering) holds its own slots only. Every attempt
 * runs under its definition's time limit (an AbortSignal the handler passes to HTTP and SMTP) and
 * renews its lease while it runs; an attempt whose lease went to another worker commits nothing.
 * Polls the jobs table, and runs at once when this process has just enqueued something (`kick`).
 * Several processes may run workers on one PostgreSQL.
 */
import { type z } from "zod";
import type { Database } from "../db";
import type { JobRow } from "../db/schema";
import type { Logger } from "../logger";
import { type JobDefinition, type Lane, LANE_NAMES, LANES } from "./define";
import { runWithJobSignal } from "./signal";
import { claimJob, completeJob, DEFAULT_LEASE_SECONDS, failJob, renewLease } from "./queue.server";

/** A failure that retrying cannot fix (bad payload, a record that no longer exists). */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/** The attempt ran past its definition's time limit. */
export class JobTimeoutError extends Error {
  override name = "JobTimeoutError";
}

/** Another worker holds the job now (this one stalled past its lease): commit nothing. */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
}

/** Why a stored payload cannot run: the first schema issues, for people reading /admin/jobs. */
function payloadError(name: string, error: z.ZodError): PermanentJobError {
  const issues = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "payload"}: ${issue.message}`)
    .join("; ");
  return new PermanentJobError(`stored payload does not match the job "${name}": ${issues}`);
}

function abortedBy(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    const fail = () =>
      reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
}

export interface RunOptions {
  leaseSeconds?: number;
  log?: Logger;
  /** Aborts the attempt from outside (the worker stopping). */
  stop?: AbortSignal;
}

/**
 * Runs one claimed attempt of `job` with its definition: parses the payload, runs the handler
 * under the time limit with lease renewal, then completes or fails the job (back-off, or at once
 * for permanent failures). Returns how it ended.
 */
export async function runClaimedJob(
  database: Database,
  definition: JobDefinition | undefined,
  job: JobRow,
  options: RunOptions = {},
): Promise<"completed" | "failed" | "lease-lost"> {
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const controller = new AbortController();
  const onStop = () => controller.abort(new Error("the worker is stopping"));
  options.stop?.addEventListener("abort", onStop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  let renewal: NodeJS.Timeout | undefined;
  try {
    if (!definition) throw new PermanentJobError(`no definition for job kind "${job.kind}"`);
    const parsed = definition.payload.safeParse(job.payload);
    if (!parsed.success) throw payloadError(definition.name, parsed.error);
    timer = setTimeout(
      () =>
        controller.abort(
          new JobTimeoutError(
            `timed out after ${Math.round(definition.timeoutMs / 1000)} s (the job's time limit)`,
          ),
        ),
      definition.timeoutMs,
    );
    renewal = setInterval(
      () => {
        renewLease(database, job, leaseSeconds).then(
          (held) => {
            if (!held)
              controller.abort(new LeaseLostError("the job's lease went to another worker"));
          },
          (error: unknown) =>
            options.log?.warn({ err: error, job: job.id }, "lease renewal failed"),
        );
      },
      Math.max(200, (leaseSeconds * 1000) / 3),
    );
    await Promise.race([
      runWithJobSignal(controller.signal, () =>
        definition.handler(parsed.data, {
          signal: controller.signal,
          job,
          idempotencyKey: `job-${job.id}`,
        }),
      ),
      abortedBy(controller.signal),
    ]);
    // A handler that returned once told to stop did not finish its work: not completed.
    if (controller.signal.aborted)
      throw controller.signal.reason instanceof Error
        ? controller.signal.reason
        : new Error(String(controller.signal.reason));
    if (!(await completeJob(database, job))) throw new LeaseLostError("the job's lease was lost");
    return "completed";
  } catch (error) {
    if (error instanceof LeaseLostError) {
      options.log?.warn({ job: { id: job.id, kind: job.kind } }, "job lease lost: not committed");
      return "lease-lost";
    }
    options.log?.warn({ err: error, job: { id: job.id, kind: job.kind } }, "job failed");
    await failJob(database, job, error, { permanent: error instanceof PermanentJobError });
    return "failed";
  } finally {
    clearTimeout(timer);
    clearInterval(renewal);
    options.stop?.removeEventListener("abort", onStop);
    // Anything the handler still holds (a socket, a request) is told to let go.
    if (!controller.signal.aborted) controller.abort(new Error("the attempt is over"));
  }
}

/** Which kinds each lane claims; the maintenance lane also takes kinds nobody defines, to fail them. */
export function laneFilters(definitions: readonly JobDefinition[]) {
  const kindsOf = (lane: Lane) => definitions.filter((d) => d.lane === lane).map((d) => d.name);
  const others = definitions.filter((d) => d.lane !== "maintenance").map((d) => d.name);
  return {
    money: { kinds: kindsOf("money") },
    mail: { kinds: kindsOf("mail") },
    maintenance: { exceptKinds: others },
  } satisfies Record<Lane, { kinds: string[] } | { exceptKinds: string[] }>;
}

/** Claims and runs due jobs until none is left (tests and tools: one at a time, every lane). */
export async function runDueJobs(
  database: Database,
  definitions: readonly JobDefinition[],
  options: RunOptions & { limit?: number } = {},
): Promise<number> {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const filters = laneFilters(definitions);
  let ran = 0;
  for (const lane of LANE_NAMES) {
    while (ran < (options.limit ?? Infinity)) {
      const job = await claimJob(database, filters[lane], options.leaseSeconds);
      if (!job) break;
      await runClaimedJob(database, byName.get(job.kind), job, options);
      ran++;
    }
  }
  return ran;
}

export interface Worker {
  /** Look for due jobs now instead of at the next poll. */
  kick(): void;
  /** Stops claiming, aborts the running attempts and waits for them (they are retried later). */
  stop(): Promise<void>;
}

export function startWorker(options: {
  database: () => Database;
  definitions: readonly JobDefinition[];
  pollMs?: number;
  leaseSeconds?: number;
  log: Logger;
}): Worker {
  const pollMs = options.pollMs ?? 1000;
  const byName = new Map(options.definitions.map((d) => [d.name, d]));
  const filters = laneFilters(options.definitions);
  const stopping = new AbortController();
  const running = new Set<Promise<unknown>>();
  const state = Object.fromEntries(
    LANE_NAMES.map((lane) => [lane, { active: 0, claiming: false, again: false }]),
  ) as Record<Lane, { active: number; claiming: boolean; again: boolean }>;
  let timer: NodeJS.Timeout | undefined;

  /** Fills the lane's free slots, one claim at a time. */
  function pump(lane: Lane): void {
    const lanes = state[lane];
    if (stopping.signal.aborted) return;
    if (lanes.claiming) {
      lanes.again = true;
      return;
    }
    if (lanes.active >= LANES[lane].slots) return;
    lanes.claiming = true;
    lanes.again = false;
    // In `running` too, so stop() waits for a claim under way: answered after the stop (the
    // database closed behind it), it starts nothing, and its job is retried once its lease ends.
    const claim = claimJob(options.database(), filters[lane], options.leaseSeconds)
      .then(
        (job) => {
          if (!job || stopping.signal.aborted) return false;
          lanes.active++;
          const attempt = runClaimedJob(options.database(), byName.get(job.kind), job, {
            leaseSeconds: options.leaseSeconds,
            log: options.log,
            stop: stopping.signal,
          })
            .catch((error: unknown) =>
              options.log.error({ err: error, job: job.id }, "job worker: attempt not recorded"),
            )
            .finally(() => {
              lanes.active--;
              running.delete(attempt);
              pump(lane);
            });
          running.add(attempt);
          return true;
        },
        (error: unknown) => {
          options.log.error({ err: error, lane }, "job worker: could not claim jobs");
          return false;
        },
      )
      .then((claimed) => {
        lanes.claiming = false;
        // A job claimed, or a kick while claiming: there may be more waiting.
        if (claimed || lanes.again) pump(lane);
      })
      .catch((error: unknown) =>
        options.log.error({ err: error, lane }, "job worker: could not start a claimed job"),
      )
      .finally(() => running.delete(claim));
    running.add(claim);
  }

  const pumpAll = () => LANE_NAMES.forEach(pump);
  const poll = () => {
    pumpAll();
    timer = setTimeout(poll, pollMs);
    timer.unref();
  };
  poll();
  return {
    kick: pumpAll,
    async stop() {
      clearTimeout(timer);
      stopping.abort();
      await Promise.allSettled([...running]);
    },
  };
}
