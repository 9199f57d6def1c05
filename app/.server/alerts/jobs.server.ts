/**
 * The alerts' two chains of jobs (maintenance lane), each scheduled with a dedupe key naming its
 * moment, so any number of instances add one job per moment between them:
 * - the sweep, every 5 minutes: what is true for a while rather than at an event (a ticket
 *   unanswered for 48 hours, a dead job, a stuck lane) becomes an alert, once;
 * - the digest, daily at 9:00 IST: each admin who chose it gets one mail with their kinds of
 *   alert since their last digest.
 */
import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, lt, ne, sql } from "drizzle-orm";
import { DIGEST_HOUR_IST } from "~/lib/alerts";
import { REPLY_WITHIN_HOURS, ticketRef } from "~/lib/support";
import { roleOf } from "../auth/role";
import { db, type Executor } from "../db";
import { adminAlerts, adminAlertSettings, jobs, supportTickets, user as users } from "../db/schema";
import { env } from "../env";
import { afterOwnSlot, chainPayload, nextSlot } from "../jobs/chain";
import { defineJob, enqueue } from "../jobs/define";
import { alertDigestMessage } from "../mail/alert-templates";
import { queueMail } from "../mail/outbox.server";
import { raiseAlert } from "./raise.server";

export const SWEEP_JOB = "alerts.sweep";
export const DIGEST_JOB = "alerts.digest";

const MINUTE = 60_000;
const SWEEP_EVERY = 5 * MINUTE;
/** A job due this long and not started: its lane is stuck (as /admin/jobs says, decision 0029). */
export const STUCK_AFTER_MINUTES = 5;

/** Schedules the sweep of the 5-minute slot after `after` (jobs/chain.ts). */
export async function scheduleAlertSweep(executor: Executor, after = new Date()): Promise<void> {
  const next = nextSlot(after, SWEEP_EVERY);
  await enqueue(
    executor,
    sweepJob,
    { at: next.toISOString() },
    { dedupeKey: `${SWEEP_JOB}:${next.toISOString()}`, runAt: next },
  );
}

/** The next 9:00 India time after `now` (India has no daylight saving: 03:30 UTC). */
export function nextDigestAt(now: Date): Date {
  const next = new Date(now);
  next.setUTCHours(DIGEST_HOUR_IST - 6, 30, 0, 0);
  if (next <= now) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/** Schedules the digest after `after` (jobs/chain.ts). */
export async function scheduleAlertDigest(executor: Executor, after = new Date()): Promise<void> {
  const next = nextDigestAt(after);
  await enqueue(
    executor,
    digestJob,
    { at: next.toISOString() },
    { dedupeKey: `${DIGEST_JOB}:${next.toISOString()}`, runAt: next },
  );
}

/** Raises what has become true since the last sweep; each alert once, however often it runs. */
export async function sweepAlerts(executor: Executor, now = new Date()): Promise<void> {
  const replyDue = new Date(now.getTime() - REPLY_WITHIN_HOURS * 3_600_000);
  const unanswered = await executor
    .select({
      id: supportTickets.id,
      number: supportTickets.number,
      subject: supportTickets.subject,
    })
    .from(supportTickets)
    .where(
      and(
        ne(supportTickets.status, "closed"),
        isNull(supportTickets.firstReplyAt),
        lt(supportTickets.createdAt, replyDue),
      ),
    )
    .limit(100);
  for (const ticket of unanswered)
    await raiseAlert(executor, {
      kind: "ticket-overdue",
      key: `ticket-overdue:${ticket.id}`,
      summary: `Ticket ${ticketRef(ticket.number)} “${ticket.subject}” has had no reply for ${REPLY_WITHIN_HOURS} hours.`,
      path: `/admin/support/${ticket.number}`,
    });

  // Dead jobs of the last day (older ones were alerted when they died, or predate alerts).
  const dead = await executor
    .select({ id: jobs.id, kind: jobs.kind, attempts: jobs.attempts, lastError: jobs.lastError })
    .from(jobs)
    .where(and(isNotNull(jobs.failedAt), gt(jobs.failedAt, new Date(now.getTime() - 86_400_000))))
    .orderBy(desc(jobs.failedAt))
    .limit(100);
  for (const job of dead)
    await raiseAlert(executor, {
      kind: "job-dead",
      // A dead job retried from /admin/jobs that dies again is a new event.
      key: `job-dead:${job.id}:${job.attempts}`,
      summary: `Job ${job.id} (${job.kind}) failed for good after ${job.attempts} attempts: ${(job.lastError ?? "no error recorded").slice(0, 200)}`,
      path: "/admin/jobs",
    });

  // The oldest due job of each kind that nobody has started in time.
  const stuck = await executor
    .select({
      kind: jobs.kind,
      oldestId: sql<number>`min(${jobs.id})`.mapWith(Number),
      since: sql<Date>`min(${jobs.runAt})`.mapWith((value: string | Date) => new Date(value)),
    })
    .from(jobs)
    .where(
      and(
        isNull(jobs.completedAt),
        isNull(jobs.failedAt),
        lte(jobs.runAt, new Date(now.getTime() - STUCK_AFTER_MINUTES * MINUTE)),
        sql`(${jobs.lockedUntil} is null or ${jobs.lockedUntil} < ${now})`,
      ),
    )
    .groupBy(jobs.kind);
  for (const lane of stuck) {
    const minutes = Math.floor((now.getTime() - lane.since.getTime()) / MINUTE);
    await raiseAlert(executor, {
      kind: "lane-stuck",
      key: `lane-stuck:${lane.kind}:${lane.oldestId}`,
      summary: `Background jobs are stuck: a ${lane.kind} job has waited ${minutes} minutes to run.`,
      path: "/admin/jobs",
    });
  }
}

/** Alerts younger than this wait for the next digest: a transaction still open could hold a lower id. */
const SETTLED_AFTER_MS = MINUTE;

/** Sends each digest admin one mail of their kinds of alert since their last digest. */
export async function sendAlertDigests(executor: Executor, now = new Date()): Promise<number> {
  const [newest] = await executor
    .select({ id: adminAlerts.id })
    .from(adminAlerts)
    .where(lt(adminAlerts.createdAt, new Date(now.getTime() - SETTLED_AFTER_MS)))
    .orderBy(desc(adminAlerts.id))
    .limit(1);
  if (!newest) return 0;
  const readers = await executor
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      emailVerified: users.emailVerified,
      role: users.role,
      kinds: adminAlertSettings.kinds,
      through: adminAlertSettings.digestedThroughId,
    })
    .from(adminAlertSettings)
    .innerJoin(users, eq(users.id, adminAlertSettings.userId))
    .where(
      and(
        eq(adminAlertSettings.delivery, "digest"),
        lt(adminAlertSettings.digestedThroughId, newest.id),
      ),
    );
  let sent = 0;
  for (const reader of readers) {
    if (roleOf(reader) !== "admin" || reader.kinds.length === 0) continue;
    const alerts = await executor
      .select({
        summary: adminAlerts.summary,
        path: adminAlerts.path,
        createdAt: adminAlerts.createdAt,
      })
      .from(adminAlerts)
      .where(
        and(
          gt(adminAlerts.id, reader.through),
          lte(adminAlerts.id, newest.id),
          inArray(adminAlerts.kind, reader.kinds),
        ),
      )
      .orderBy(adminAlerts.id)
      .limit(200);
    if (alerts.length > 0) {
      await queueMail(
        executor,
        alertDigestMessage({
          to: reader.email,
          name: reader.name,
          siteUrl: env().SITE_URL,
          alerts,
        }),
        `alert-digest:${reader.userId}:${newest.id}`,
      );
      sent += 1;
    }
    await executor
      .update(adminAlertSettings)
      .set({ digestedThroughId: newest.id })
      .where(eq(adminAlertSettings.userId, reader.userId));
  }
  return sent;
}

export const sweepJob = defineJob({
  name: SWEEP_JOB,
  lane: "maintenance",
  payload: chainPayload,
  timeoutMs: 60_000,
  maxAttempts: 3,
  async handler({ at }) {
    const database = db();
    await database.transaction((tx) => sweepAlerts(tx));
    await scheduleAlertSweep(database, afterOwnSlot(at));
  },
});

export const digestJob = defineJob({
  name: DIGEST_JOB,
  lane: "maintenance",
  payload: chainPayload,
  timeoutMs: 60_000,
  maxAttempts: 5,
  async handler({ at }) {
    const database = db();
    await database.transaction((tx) => sendAlertDigests(tx));
    await scheduleAlertDigest(database, afterOwnSlot(at));
  },
});
