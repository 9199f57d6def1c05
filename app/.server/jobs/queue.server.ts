/**
 * A durable job queue in the jobs table. Enqueue inside the transaction that makes the work
 * necessary; a worker claims due jobs with a lease (FOR UPDATE SKIP LOCKED, so two instances
 * never take the same job) and retries failures with backoff. Handlers must be idempotent: a
 * worker killed mid-job leaves the lease to expire and the job runs again.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db";
import { jobs, type JobRow } from "../db/schema";

/** A database or an open transaction: enqueue inside the caller's transaction. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface JobInput {
  kind: string;
  payload?: Record<string, unknown>;
  /** Enqueueing with a key already used (done or not) adds nothing. */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/** Adds a job; true if it was new. */
export async function enqueueJob(executor: Executor, job: JobInput): Promise<boolean> {
  const inserted = await executor
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload ?? {},
      dedupeKey: job.dedupeKey,
      runAt: job.runAt ?? new Date(),
      maxAttempts: job.maxAttempts ?? 10,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return inserted.length > 0;
}

export const LEASE_SECONDS = 120;

/** Takes up to `limit` due jobs for this worker: each is leased, and its attempt counted. */
export async function claimDueJobs(database: Database, limit: number): Promise<JobRow[]> {
  const result = await database.execute(sql`
    update ${jobs}
       set locked_until = now() + ${sql.raw(`interval '${LEASE_SECONDS} seconds'`)},
           attempts = attempts + 1
     where id in (
       select id from ${jobs}
        where completed_at is null and failed_at is null and run_at <= now()
          and (locked_until is null or locked_until < now())
        order by run_at, id
        limit ${limit}
        for update skip locked)
    returning id`);
  const ids = (result as unknown as { rows: { id: number | string }[] }).rows.map((row) =>
    Number(row.id),
  );
  if (ids.length === 0) return [];
  return database.select().from(jobs).where(inArray(jobs.id, ids)).orderBy(jobs.runAt, jobs.id);
}

/** Seconds until the next try: 5 s, 10 s, 20 s … capped at an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 5 * 2 ** Math.max(0, attempts - 1));
}

export async function completeJob(database: Database, job: JobRow): Promise<void> {
  await database
    .update(jobs)
    .set({ completedAt: new Date(), lockedUntil: null, lastError: null })
    .where(and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts)));
}

export async function failJob(
  database: Database,
  job: JobRow,
  error: unknown,
  options: { permanent?: boolean } = {},
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const finished = options.permanent || job.attempts >= job.maxAttempts;
  await database
    .update(jobs)
    .set({
      lockedUntil: null,
      lastError: message.slice(0, 2000),
      ...(finished
        ? { failedAt: new Date() }
        : { runAt: new Date(Date.now() + retryDelaySeconds(job.attempts) * 1000) }),
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts)));
}
