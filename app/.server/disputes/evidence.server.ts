/**
 * What the site holds that answers a dispute (issue 59, point 4): the payment and its invoice,
 * the customer's sign-ins and desktop devices (with when each was last seen), what they used in
 * the app, and the mails sent to them. The operator submits it at Razorpay by the deadline; the
 * site never sends it anywhere itself.
 */
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import {
  desktopDevices,
  desktopUsageEvents,
  type DisputeRow,
  disputes,
  invoiceColumns,
  invoices,
  type InvoiceRow,
  mailLog,
  payments,
  session,
  user as users,
} from "../db/schema";

/** Rows per kind of evidence: the newest, enough to show use; the full record is on request. */
const ROWS = 20;
/** Usage counted over the 90 days before the dispute opened. */
const USAGE_DAYS = 90;

export interface DisputeEvidence {
  dispute: DisputeRow;
  customer: { id: string; email: string; name: string; since: Date } | null;
  payment: {
    amountMinor: number;
    currency: string;
    paidAt: Date | null;
    method: string | null;
  } | null;
  invoice: InvoiceRow | null;
  creditNote: InvoiceRow | null;
  signIns: { at: Date; ipAddress: string | null; userAgent: string | null }[];
  devices: {
    name: string;
    platform: string;
    createdAt: Date;
    lastSeenAt: Date;
    revokedAt: Date | null;
  }[];
  usage: { feature: string; uses: number; firstAt: Date; lastAt: Date }[];
  mails: { subject: string; status: string; at: Date }[];
}

export async function disputeEvidence(
  disputeId: string,
  database: Database = defaultDb(),
): Promise<DisputeEvidence | null> {
  const [dispute] = await database
    .select()
    .from(disputes)
    .where(eq(disputes.providerDisputeId, disputeId));
  if (!dispute) return null;
  const [customer] = dispute.userId
    ? await database
        .select({ id: users.id, email: users.email, name: users.name, since: users.createdAt })
        .from(users)
        .where(eq(users.id, dispute.userId))
    : [];
  const [payment] = await database
    .select({
      amountMinor: payments.amountPaise,
      currency: payments.currency,
      paidAt: payments.paidAt,
      method: payments.method,
    })
    .from(payments)
    .where(eq(payments.providerPaymentId, dispute.providerPaymentId));
  const [invoice] = await database
    .select(invoiceColumns)
    .from(invoices)
    .where(
      and(eq(invoices.providerPaymentId, dispute.providerPaymentId), eq(invoices.kind, "invoice")),
    );
  const [creditNote] = await database
    .select(invoiceColumns)
    .from(invoices)
    .where(eq(invoices.providerDisputeId, disputeId));
  if (!customer)
    return {
      dispute,
      customer: null,
      payment: payment ?? null,
      invoice: invoice ?? null,
      creditNote: creditNote ?? null,
      signIns: [],
      devices: [],
      usage: [],
      mails: [],
    };
  const usageSince = new Date(dispute.openedAt.getTime() - USAGE_DAYS * 86_400_000);
  const [signIns, devices, usage, mails] = await Promise.all([
    database
      .select({ at: session.createdAt, ipAddress: session.ipAddress, userAgent: session.userAgent })
      .from(session)
      .where(eq(session.userId, customer.id))
      .orderBy(desc(session.createdAt))
      .limit(ROWS),
    database
      .select({
        name: desktopDevices.name,
        platform: desktopDevices.platform,
        createdAt: desktopDevices.createdAt,
        lastSeenAt: desktopDevices.lastSeenAt,
        revokedAt: desktopDevices.revokedAt,
      })
      .from(desktopDevices)
      .where(eq(desktopDevices.userId, customer.id))
      .orderBy(desc(desktopDevices.lastSeenAt))
      .limit(ROWS),
    database
      .select({
        feature: desktopUsageEvents.feature,
        uses: sql<number>`sum(${desktopUsageEvents.count})::int`,
        firstAt: sql<Date>`min(${desktopUsageEvents.occurredAt})`,
        lastAt: sql<Date>`max(${desktopUsageEvents.occurredAt})`,
      })
      .from(desktopUsageEvents)
      .where(
        and(
          eq(desktopUsageEvents.userId, customer.id),
          gte(desktopUsageEvents.occurredAt, usageSince),
        ),
      )
      .groupBy(desktopUsageEvents.feature)
      .orderBy(desc(sql`sum(${desktopUsageEvents.count})`))
      .limit(ROWS),
    database
      .select({ subject: mailLog.subject, status: mailLog.status, at: mailLog.lastAttemptAt })
      .from(mailLog)
      .where(eq(mailLog.recipient, customer.email))
      .orderBy(desc(mailLog.lastAttemptAt))
      .limit(ROWS),
  ]);
  return {
    dispute,
    customer,
    payment: payment ?? null,
    invoice: invoice ?? null,
    creditNote: creditNote ?? null,
    signIns,
    devices,
    // min/max come back as text from some drivers: dates, whatever the engine.
    usage: usage.map((row) => ({
      ...row,
      firstAt: new Date(row.firstAt),
      lastAt: new Date(row.lastAt),
    })),
    mails,
  };
}

/** Every dispute, newest first, with its customer's address (the operator's list). */
export async function listDisputes(database: Database = defaultDb()) {
  return database
    .select({
      disputeId: disputes.providerDisputeId,
      paymentId: disputes.providerPaymentId,
      email: users.email,
      amountMinor: disputes.amountMinor,
      currency: disputes.currency,
      amountDeductedMinor: disputes.amountDeductedMinor,
      status: disputes.status,
      respondBy: disputes.respondBy,
      openedAt: disputes.openedAt,
    })
    .from(disputes)
    .leftJoin(users, eq(users.id, disputes.userId))
    .orderBy(desc(disputes.openedAt))
    .limit(200);
}
