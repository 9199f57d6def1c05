/**
 * The job queue as operators see it (/admin/jobs): per lane, what is due, running, waiting to
 * retry and dead, with the last error; retrying or discarding a dead job, audited.
 */
import { and, asc, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Session } from "../auth/session";
import { type Database, db as defaultDb } from "../db";
import { auditLog, jobs, type JobRow } from "../db/schema";
import { type Lane, LANE_NAMES } from "../jobs/define";
import { jobDefinitions } from "../jobs/registry.server";

/** A lane whose oldest due job has waited longer than this is stuck: the dashboard says so. */
export const STALE_QUEUE_MINUTES = 5;

export type JobState = "due" | "running" | "retrying" | "dead";

export interface JobView {
  id: number;
  kind: string;
  lane: Lane;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAt: Date;
  createdAt: Date;
  failedAt: Date | null;
}

export interface LaneSummary {
  lane: Lane;
  due: number;
  running: number;
  retrying: number;
  dead: number;
  /** When the oldest job that should be running by now became due. */
  oldestDueAt: Date | null;
}

/** The lane a stored kind runs in; kinds nobody defines are failed by the maintenance lane. */
export function laneOf(kind: string): Lane {
  return jobDefinitions().find((definition) => definition.name === kind)?.lane ?? "maintenance";
}

function stateOf(row: JobRow, now: Date): JobState {
  if (row.failedAt) return "dead";
  if (row.lockedUntil && row.lockedUntil > now) return "running";
  if (row.runAt > now && row.attempts > 0) return "retrying";
  return "due";
}

/** Every unfinished job (due, running, retrying) and the dead ones, newest problems first. */
export async function queueOverview(
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<{ lanes: LaneSummary[]; jobs: JobView[] }> {
  const rows = await database
    .select()
    .from(jobs)
    .where(isNull(jobs.completedAt))
    // A future job that never ran (the next hourly prune, a reminder) is not a queue problem.
    .orderBy(desc(jobs.failedAt), asc(jobs.runAt), asc(jobs.id))
    .limit(500);
  const views: JobView[] = rows
    .filter((row) => row.failedAt || row.runAt <= now || row.attempts > 0)
    .map((row) => ({
      id: row.id,
      kind: row.kind,
      lane: laneOf(row.kind),
      state: stateOf(row, now),
      attempts: row.attempts,
      maxAttempts: row.maxAttempts,
      lastError: row.lastError,
      runAt: row.runAt,
      createdAt: row.createdAt,
      failedAt: row.failedAt,
    }));
  const lanes = LANE_NAMES.map((lane): LaneSummary => {
    const of = views.filter((view) => view.lane === lane);
    const count = (state: JobState) => of.filter((view) => view.state === state).length;
    const due = of.filter((view) => view.state === "due");
    return {
      lane,
      due: due.length,
      running: count("running"),
      retrying: count("retrying"),
      dead: count("dead"),
      oldestDueAt: due.reduce<Date | null>(
        (oldest, view) => (!oldest || view.runAt < oldest ? view.runAt : oldest),
        null,
      ),
    };
  });
  return { lanes, jobs: views };
}

/** Lanes whose oldest due job has waited more than STALE_QUEUE_MINUTES (for the dashboard). */
export async function staleLanes(
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<{ lane: Lane; minutes: number }[]> {
  const { lanes } = await queueOverview(database, now);
  return lanes
    .filter((summary) => summary.oldestDueAt !== null)
    .map((summary) => ({
      lane: summary.lane,
      minutes: Math.floor((now.getTime() - summary.oldestDueAt!.getTime()) / 60_000),
    }))
    .filter((stale) => stale.minutes >= STALE_QUEUE_MINUTES);
}

export type DeadJobAction = "retry" | "discard";

/**
 * Retries a dead job (its attempts start again) or discards it, and writes the audit row in the
 * same transaction. Only dead jobs: a running one belongs to its worker. Null when there is no
 * dead job with that id (already retried or discarded by another admin).
 */
export async function settleDeadJob(
  session: Session,
  id: number,
  action: DeadJobAction,
  database: Database = defaultDb(),
): Promise<JobRow | null> {
  return database.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, id), isNotNull(jobs.failedAt), isNull(jobs.completedAt)))
      .for("update");
    if (!row) return null;
    if (action === "retry") {
      await tx
        .update(jobs)
        .set({ failedAt: null, attempts: 0, runAt: sql`now()`, lockedUntil: null })
        .where(eq(jobs.id, id));
    } else {
      await tx.delete(jobs).where(eq(jobs.id, id));
    }
    await tx.insert(auditLog).values({
      actorUserId: session.user.id,
      actorEmail: session.user.email,
      action: action === "retry" ? "job.retry" : "job.discard",
      targetUserId: null,
      target: `job ${row.id} (${row.kind})`,
      before: {
        kind: row.kind,
        attempts: row.attempts,
        lastError: row.lastError,
        failedAt: row.failedAt,
      },
      after: action === "retry" ? { attempts: 0, due: "now" } : { discarded: true },
    });
    return row;
  });
}
