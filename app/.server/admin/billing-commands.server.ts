/**
 * The operator's repair actions on one customer's billing: resync from Razorpay, replay a
 * webhook, grant a plan, correct a GSTIN. Each checks the role again (not only the route guard)
 * and writes the audit log with the state before and after.
 */
import { and, eq } from "drizzle-orm";
import { stateByCode, validateGstin } from "~/lib/gst";
import { formatDate } from "~/lib/dates";
import { type PaidPlanId } from "~/lib/plans";
import { assertAdmin, type Session } from "../auth/session";
import { type Database, db as defaultDb } from "../db";
import {
  entitlementGrants,
  invoiceColumns,
  invoices,
  subscriptions,
  user as users,
  webhookEvents,
} from "../db/schema";
import type { RazorpayClient } from "../billing/razorpay/client";
import { resyncWithPayments } from "../billing/missed-payments.server";
import { processWebhookEvent } from "../billing/webhooks.server";
import { reissueWithBuyer } from "../invoices/issue.server";
import { audit } from "./audit.server";
import { extendTrial } from "../trials/trials.server";
import { AppError } from "../http/errors";

export async function subscriptionOwnedBy(
  userId: string,
  providerSubscriptionId: string,
  database: Database,
) {
  const [row] = await database
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
      ),
    );
  if (!row) throw new AppError("not_found", "That subscription does not belong to this customer.");
  return row;
}

const snapshot = (row: {
  status: string;
  currentEnd: Date | null;
  chargeAt: Date | null;
  paidCount: number;
}) => ({
  status: row.status,
  currentEnd: row.currentEnd?.toISOString() ?? null,
  chargeAt: row.chargeAt?.toISOString() ?? null,
  paidCount: row.paidCount,
});

export async function adminResync(
  session: Session,
  userId: string,
  providerSubscriptionId: string,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const before = await subscriptionOwnedBy(userId, providerSubscriptionId, database);
  const after = await resyncWithPayments(providerSubscriptionId, options);
  await audit(database, session, {
    action: "subscription.resync",
    targetUserId: userId,
    target: providerSubscriptionId,
    before: snapshot(before),
    after: after ? snapshot(after) : null,
  });
  return after ? `Resynced: Razorpay says ${after.status}.` : "Resynced.";
}

export async function adminReplay(
  session: Session,
  userId: string,
  eventId: string,
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const [event] = await database
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.eventId, eventId));
  if (!event?.providerSubscriptionId)
    throw new AppError("not_found", "No such event for this customer.");
  const before = await subscriptionOwnedBy(userId, event.providerSubscriptionId, database);
  await processWebhookEvent(eventId, { ...options, replay: true });
  const after = await subscriptionOwnedBy(userId, event.providerSubscriptionId, database);
  await audit(database, session, {
    action: "webhook.replay",
    targetUserId: userId,
    target: eventId,
    before: snapshot(before),
    after: snapshot(after),
  });
  return `Replayed ${event.event} (${eventId}).`;
}

/** What an operator confirms before a refund is made: the amount and the credit note it issues. */
export async function adminGrant(
  session: Session,
  userId: string,
  input: { planId: PaidPlanId; days: number; reason: string },
  options: { database?: Database; now?: Date } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  const [owner] = await database.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!owner) throw new AppError("not_found", "No such customer.");
  const endsAt = new Date(now.getTime() + input.days * 86_400_000);
  const [grant] = await database
    .insert(entitlementGrants)
    .values({
      userId,
      planId: input.planId,
      startsAt: now,
      endsAt,
      reason: input.reason,
      grantedBy: session.user.id,
    })
    .returning();
  await audit(database, session, {
    action: "entitlement.grant",
    targetUserId: userId,
    target: grant?.id ?? null,
    reason: input.reason,
    before: null,
    after: { planId: input.planId, endsAt: endsAt.toISOString() },
  });
  return `Granted ${input.planId} for ${input.days} days, until ${formatDate(endsAt)}.`;
}
/** Moves a customer's running free trial `days` later, recorded in the audit log (issue 36). */
export async function adminExtendTrial(
  session: Session,
  userId: string,
  input: { days: number; reason: string },
  options: { database?: Database; now?: Date } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const moved = await extendTrial(userId, input.days, { database, now: options.now });
  if (!moved)
    throw new AppError(
      "conflict",
      "This customer has no free trial running: give Pro with a grant instead.",
    );
  await audit(database, session, {
    action: "trial.extend",
    targetUserId: userId,
    target: null,
    reason: input.reason,
    before: { endsAt: moved.before.toISOString() },
    after: { endsAt: moved.after.toISOString() },
  });
  return `The free trial now ends on ${formatDate(moved.after)}, ${input.days} ${input.days === 1 ? "day" : "days"} later.`;
}

/**
 * Corrects the buyer's GSTIN on an issued invoice: a full credit note against it and a new
 * invoice with the corrected buyer (never an edit in place), recorded in the audit log.
 */
export async function adminCorrectGstin(
  session: Session,
  userId: string,
  input: { invoiceId: string; gstin: string | null; reason: string },
  options: { database?: Database; now?: Date } = {},
): Promise<string> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const [original] = await database
    .select(invoiceColumns)
    .from(invoices)
    .where(
      and(
        eq(invoices.id, input.invoiceId),
        eq(invoices.userId, userId),
        eq(invoices.kind, "invoice"),
      ),
    );
  if (!original) throw new AppError("not_found", "That invoice does not belong to this customer.");
  const credited = await database
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.originalInvoiceId, original.id), eq(invoices.kind, "credit_note")));
  if (credited.length > 0)
    throw new AppError(
      "invalid",
      "That invoice already has a credit note; correct its replacement instead.",
    );
  const { document } = original;
  let buyer = { ...document.buyer, gstin: input.gstin };
  if (input.gstin) {
    const checked = validateGstin(input.gstin);
    if (!checked.ok) throw new AppError("invalid", checked.error);
    // The registration decides the state on a B2B invoice.
    buyer = {
      ...buyer,
      gstin: checked.gstin,
      stateCode: checked.stateCode,
      stateName: stateByCode(checked.stateCode)?.name ?? null,
    };
  }
  const { creditNote, invoice } = await database.transaction((tx) =>
    reissueWithBuyer(tx, original, buyer, options.now ?? new Date()),
  );
  await audit(database, session, {
    action: "invoice.correct-gstin",
    targetUserId: userId,
    target: original.number,
    reason: input.reason,
    before: { invoice: original.number, gstin: document.buyer.gstin },
    after: { creditNote: creditNote.number, invoice: invoice.number, gstin: buyer.gstin },
  });
  return `Issued credit note ${creditNote.number} and invoice ${invoice.number}.`;
}
