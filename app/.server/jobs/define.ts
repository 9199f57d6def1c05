/**
 * One definition per kind of background job: its name, payload schema, handler, time limit, lane
 * and retries, in the module of its domain, listed once in `registry.server.ts`. Enqueueing is
 * typed by the definition (a wrong payload does not compile), and the worker parses the stored
 * payload before the handler sees it (one that no longer parses fails at once, with its error).
 * docs/decisions/0029.
 */
import type { z } from "zod";
import type { JobRow } from "../db/schema";
import { enqueueJob } from "./queue.server";
import type { Executor } from "../db";

/**
 * Lanes run side by side, each with its own slots: money work (webhooks, resyncs, invoices,
 * refunds, switches) never waits behind mail, and a mail server that hangs holds mail only.
 */
export const LANES = {
  money: { slots: 2, label: "Money (webhooks, resyncs, invoices, refunds, switches)" },
  mail: { slots: 2, label: "Mail" },
  maintenance: { slots: 1, label: "Maintenance" },
} as const;

export type Lane = keyof typeof LANES;

export const LANE_NAMES = Object.keys(LANES) as Lane[];

export interface JobContext {
  /** Aborted at the job's time limit, when its lease is lost, or when the worker stops. */
  signal: AbortSignal;
  job: JobRow;
  /**
   * The same for every attempt of this job: effects that leave the process (a mail's
   * Message-ID, a provider request's receipt) carry it, so a retry after a crash is recognisable.
   */
  idempotencyKey: string;
}

export interface JobDefinition<Schema extends z.ZodType = z.ZodType> {
  name: string;
  payload: Schema;
  lane: Lane;
  /** The time limit of one attempt: the signal aborts it and the job is retried with back-off. */
  timeoutMs: number;
  maxAttempts: number;
  handler(payload: z.output<Schema>, context: JobContext): Promise<void>;
}

export function defineJob<Schema extends z.ZodType>(
  definition: JobDefinition<Schema>,
): JobDefinition<Schema> {
  return definition;
}

/**
 * Adds a job of this kind inside the caller's transaction; true if it was new. `dedupeKey`: the
 * same work enqueued twice (a webhook delivered again, two instances scheduling) runs once.
 */
export async function enqueue<Schema extends z.ZodType>(
  executor: Executor,
  definition: JobDefinition<Schema>,
  payload: z.input<Schema>,
  options: { dedupeKey?: string; runAt?: Date } = {},
): Promise<boolean> {
  // Checked here too, so a bad payload fails where it is made, not later in the worker.
  const parsed = definition.payload.parse(payload) as Record<string, unknown>;
  return enqueueJob(executor, {
    kind: definition.name,
    payload: parsed,
    dedupeKey: options.dedupeKey,
    runAt: options.runAt,
    maxAttempts: definition.maxAttempts,
  });
}
