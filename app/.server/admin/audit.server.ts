/**
 * The audit log of the operator's actions: who did what to whom, why, and the state before and
 * after. Written in the same transaction as the change it records where there is one.
 */
import type { Session } from "../auth/session-shape";
import { auditLog } from "../db/schema";
import type { Executor } from "../db";

export interface AuditEntry {
  action: string;
  targetUserId: string | null;
  target: string | null;
  reason?: string | null;
  before: unknown;
  after: unknown;
}

export async function audit(executor: Executor, session: Session, entry: AuditEntry) {
  await insertAudit(executor, { id: session.user.id, email: session.user.email }, entry);
}

/** An action the site takes by itself under a rule (a referral's reward): no person did it. */
export async function auditBySite(executor: Executor, entry: AuditEntry) {
  await insertAudit(executor, { id: null, email: "the site (automatic)" }, entry);
}

async function insertAudit(
  executor: Executor,
  actor: { id: string | null; email: string },
  entry: AuditEntry,
) {
  await executor.insert(auditLog).values({
    actorUserId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    targetUserId: entry.targetUserId,
    target: entry.target,
    reason: entry.reason ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
