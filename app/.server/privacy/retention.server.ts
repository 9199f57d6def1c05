/**
 * What the privacy policy (content/legal/privacy.md, "How long we keep it") promises to delete,
 * deleted: feedback 24 months after it was sent, a support conversation 24 months after it
 * ended (the ticket closed; a ticket still open is a conversation still going), the record of a
 * mail sent 12 months after its last try, the fingerprint of a mailbox that had a free trial 36
 * months after the trial ended, a coupon's use (with its mailbox fingerprint) 36 months after it,
 * the record of a customer's own 7-day refund (with its mailbox fingerprint) 36 months after it.
 * A team invitation goes 30 days after it expired. Run hourly by the prune (jobs/maintenance.server.ts).
 */
import { and, eq, lt } from "drizzle-orm";
import type { Database } from "../db";
import {
  couponRedemptions,
  feedback,
  invitation,
  selfRefunds,
  supportTickets,
  trials,
} from "../db/schema";
import { MAIL_LOG_RETENTION_MONTHS, pruneMailLog } from "../mail/mail-log.server";

export const PERSONAL_RETENTION_MONTHS = {
  feedback: 24,
  /** After the ticket was closed; its messages go with it. */
  supportConversations: 24,
  /** After the trial ended: the keyed hash of its mailbox, which stops a second trial. */
  trialMailboxes: 36,
  /** After the coupon was used: the record of the use and its mailbox's keyed hash. */
  couponUses: 36,
  /** After the customer's own refund: its record and mailbox hash, which stop a second one. */
  ownRefunds: 36,
} as const;

/** Days after an invitation expired (answered or not) that it is kept: it names a person's address. */
export const INVITATION_RETENTION_DAYS = 30;

function monthsBefore(now: Date, months: number): Date {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date;
}

export async function prunePersonalData(database: Database, now = new Date()) {
  const oldFeedback = await database
    .delete(feedback)
    .where(lt(feedback.createdAt, monthsBefore(now, PERSONAL_RETENTION_MONTHS.feedback)))
    .returning({ id: feedback.id });
  const oldTickets = await database
    .delete(supportTickets)
    .where(
      and(
        eq(supportTickets.status, "closed"),
        lt(
          supportTickets.closedAt,
          monthsBefore(now, PERSONAL_RETENTION_MONTHS.supportConversations),
        ),
      ),
    )
    .returning({ id: supportTickets.id });
  const mails = await pruneMailLog(database, monthsBefore(now, MAIL_LOG_RETENTION_MONTHS));
  const oldTrials = await database
    .delete(trials)
    .where(lt(trials.endsAt, monthsBefore(now, PERSONAL_RETENTION_MONTHS.trialMailboxes)))
    .returning({ id: trials.id });
  const oldCouponUses = await database
    .delete(couponRedemptions)
    .where(lt(couponRedemptions.createdAt, monthsBefore(now, PERSONAL_RETENTION_MONTHS.couponUses)))
    .returning({ id: couponRedemptions.id });
  const oldOwnRefunds = await database
    .delete(selfRefunds)
    .where(lt(selfRefunds.requestedAt, monthsBefore(now, PERSONAL_RETENTION_MONTHS.ownRefunds)))
    .returning({ at: selfRefunds.requestedAt });
  const oldInvitations = await database
    .delete(invitation)
    .where(
      lt(invitation.expiresAt, new Date(now.getTime() - INVITATION_RETENTION_DAYS * 86_400_000)),
    )
    .returning({ id: invitation.id });
  return {
    invitations: oldInvitations.length,
    feedback: oldFeedback.length,
    supportTickets: oldTickets.length,
    mails,
    trials: oldTrials.length,
    couponUses: oldCouponUses.length,
    ownRefunds: oldOwnRefunds.length,
  };
}
