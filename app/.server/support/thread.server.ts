/**
 * What both sides of the support desk read: a ticket with what it points at, and its thread.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../db";
import { desktopDevices, invoices, supportMessages, supportTickets } from "../db/schema";

export interface ThreadMessage {
  id: string;
  side: "customer" | "team";
  authorName: string;
  internal: boolean;
  body: string;
  createdAt: Date;
}

export const summaryColumns = {
  number: supportTickets.number,
  subject: supportTickets.subject,
  category: supportTickets.category,
  status: supportTickets.status,
  createdAt: supportTickets.createdAt,
  lastMessageAt: supportTickets.lastMessageAt,
};

/** A ticket by a condition, with the invoice number and device name it points at. */
export async function ticketWithLinks(database: Database, where: ReturnType<typeof and>) {
  const [row] = await database
    .select({
      id: supportTickets.id,
      ...summaryColumns,
      userId: supportTickets.userId,
      assigneeId: supportTickets.assigneeId,
      firstReplyAt: supportTickets.firstReplyAt,
      closedAt: supportTickets.closedAt,
      invoiceNumber: invoices.number,
      deviceName: desktopDevices.name,
    })
    .from(supportTickets)
    .leftJoin(invoices, eq(invoices.id, supportTickets.invoiceId))
    .leftJoin(desktopDevices, eq(desktopDevices.id, supportTickets.deviceId))
    .where(where)
    .limit(1);
  return row ?? null;
}

/** A ticket's messages, oldest first; the team's notes only when asked for. */
export async function threadOf(
  database: Database,
  ticketId: string,
  { withNotes }: { withNotes: boolean },
): Promise<ThreadMessage[]> {
  return database
    .select({
      id: supportMessages.id,
      side: supportMessages.side,
      authorName: supportMessages.authorName,
      internal: supportMessages.internal,
      body: supportMessages.body,
      createdAt: supportMessages.createdAt,
    })
    .from(supportMessages)
    .where(
      withNotes
        ? eq(supportMessages.ticketId, ticketId)
        : and(eq(supportMessages.ticketId, ticketId), eq(supportMessages.internal, false)),
    )
    .orderBy(supportMessages.createdAt, supportMessages.id);
}
