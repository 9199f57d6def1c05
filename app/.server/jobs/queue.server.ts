/**
 * A durable job queue in the jobs table. Enqueue inside the transaction that makes the work
 * necessary (through `enqueue` and a job definition, define.ts); a worker claims one due job per
 * free slot with a lease (FOR UPDATE SKIP LOCKED, so two instances never take the same job),
 * renews the lease while it runs and retries failures with backoff. Handlers must be idempotent:
 * a worker killed mid-job leaves the lease to expire and the job runs again.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database, Executor } from "../db";
import { jobDedupeKeys, jobs, type JobRow } from "../db/schema";

export interface JobInput {
  kind: string;
  payload?: Record<string, unknown>;
  /** Enqueueing with a key already used (done or not) adds nothing. */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Adds a job; true if it was new. A dedupe key passes the gate of `job_dedupe_keys` first, in the
 * same transaction as the job (a savepoint inside the caller's): the key outlives the job's row,
 * which is pruned once finished (maintenance.server.ts), so work is never enqueued twice.
 */
export async function enqueueJob(executor: Executor, job: JobInput): Promise<boolean> {
  const insert = async (tx: Executor) => {
    const { dedupeKey } = job;
    if (dedupeKey !== undefined) {
      const gate = await tx
        .insert(jobDedupeKeys)
        .values({ key: dedupeKey })
        .onConflictDoNothing({ target: jobDedupeKeys.key })
        .returning({ key: jobDedupeKeys.key });
      if (gate.length === 0) return false;
    }
    const inserted = await tx
      .insert(jobs)
      .values({
        kind: job.kind,
        payload: job.payload ?? {},
        dedupeKey,
        runAt: job.runAt ?? new Date(),
        maxAttempts: job.maxAttempts ?? 10,
      })
      .onConflictDoNothing({ target: jobs.dedupeKey })
      .returning({ id: jobs.id });
    return inserted.length > 0;
  };
  return job.dedupeKey === undefined ? insert(executor) : executor.transaction(insert);
}

/** True when work was ever enqueued with `dedupeKey` (its job may be pruned since). */
export async function dedupeKeyTaken(executor: Executor, dedupeKey: string): Promise<boolean> {
  const [row] = await executor
    .select({ key: jobDedupeKeys.key })
    .from(jobDedupeKeys)
    .where(eq(jobDedupeKeys.key, dedupeKey));
  return row !== undefined;
}

/** How long a claim holds a job without renewal; a running job renews it every third of this. */
export const DEFAULT_LEASE_SECONDS = 60;

/**
 * Claims one due job among `kinds` (or, with `exceptKinds`, among every other kind): leased for
 * `leaseSeconds`, its attempt counted. The attempt count is the lease's token: renewing,
 * completing and failing all check it, so a worker whose lease went to another changes nothing.
 */
export async function claimJob(
  database: Database,
  filter: { kinds: readonly string[] } | { exceptKinds: readonly string[] },
  leaseSeconds: number = DEFAULT_LEASE_SECONDS,
): Promise<JobRow | null> {
  const which =
    "kinds" in filter
      ? filter.kinds.length === 0
        ? sql`false`
        : sql`kind in (${sql.join(
            filter.kinds.map((kind) => sql`${kind}`),
            sql`, `,
          )})`
      : filter.exceptKinds.length === 0
        ? sql`true`
        : sql`kind not in (${sql.join(
            filter.exceptKinds.map((kind) => sql`${kind}`),
            sql`, `,
          )})`;
  const result = await database.execute(sql`
    update ${jobs}
       set locked_until = now() + make_interval(secs => ${leaseSeconds}),
           attempts = attempts + 1
     where id = (
       select id from ${jobs}
        where completed_at is null and failed_at is null and run_at <= now()
          and (locked_until is null or locked_until < now())
          and ${which}
        order by run_at, id
        limit 1
        for update skip locked)
    returning id`);
  const id = (result as unknown as { rows: { id: number | string }[] }).rows[0]?.id;
  if (id === undefined) return null;
  const [row] = await database
    .select()
    .from(jobs)
    .where(eq(jobs.id, Number(id)));
  return row ?? null;
}

/** Takes up to `limit` due jobs of any kind (tests and tools); each is leased and counted. */
export async function claimDueJobs(
  database: Database,
  limit: number,
  leaseSeconds: number = DEFAULT_LEASE_SECONDS,
): Promise<JobRow[]> {
  const claimed: JobRow[] = [];
  while (claimed.length < limit) {
    const job = await claimJob(database, { exceptKinds: [] }, leaseSeconds);
    if (!job) break;
    claimed.push(job);
  }
  return claimed;
}

/** Extends the lease of a running job; false when it is no longer this attempt's to hold. */
export async function renewLease(
  database: Database,
  job: JobRow,
  leaseSeconds: number = DEFAULT_LEASE_SECONDS,
): Promise<boolean> {
  const renewed = await database
    .update(jobs)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(
      and(
        eq(jobs.id, job.id),
        eq(jobs.attempts, job.attempts),
        isNull(jobs.completedAt),
        isNull(jobs.failedAt),
      ),
    )
    .returning({ id: jobs.id });
  return renewed.length > 0;
}

/**
 * Jobs not settled: not finished and due now or within `withinMs` (a running job is one of them: a
 * claim leaves its due time as it was, and a retry moves it to later). Zero means
 * the queue is quiet: nothing is being done and nothing is waiting to be, though retries with
 * back-off and scheduled work may be due later. With `kinds`, only those kinds count (one lane).
 */
export async function unsettledJobCount(
  database: Database,
  options: { kinds?: readonly string[]; withinMs?: number } = {},
): Promise<number> {
  const which =
    options.kinds === undefined
      ? sql`true`
      : options.kinds.length === 0
        ? sql`false`
        : sql`kind in (${sql.join(
            options.kinds.map((kind) => sql`${kind}`),
            sql`, `,
          )})`;
  const result = await database.execute(sql`
    select count(*)::int as n from ${jobs}
     where completed_at is null and failed_at is null and ${which}
       and run_at <= now() + make_interval(secs => ${(options.withinMs ?? 0) / 1000})`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/** Seconds until the next try: 5 s, 10 s, 20 s … capped at an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 5 * 2 ** Math.max(0, attempts - 1));
}

/** Marks this attempt done; false when the job is no longer this attempt's (its lease was lost). */
export async function completeJob(database: Database, job: JobRow): Promise<boolean> {
  const done = await database
    .update(jobs)
    .set({ completedAt: new Date(), lockedUntil: null, lastError: null })
    .where(and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts), isNull(jobs.completedAt)))
    .returning({ id: jobs.id });
  return done.length > 0;
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
