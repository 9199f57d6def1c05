/**
 * What both sides of the support desk read: a ticket with what it points at, and its thread.
 */
import { and, count, desc, eq } from "drizzle-orm";
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

/** What a thread shows of a message. */
const messageColumns = {
  id: supportMessages.id,
  side: supportMessages.side,
  authorName: supportMessages.authorName,
  internal: supportMessages.internal,
  body: supportMessages.body,
  createdAt: supportMessages.createdAt,
};

/** A ticket's messages the viewer sees: the team's notes only when asked for. */
function visibleMessages(ticketId: string, withNotes: boolean) {
  return withNotes
    ? eq(supportMessages.ticketId, ticketId)
    : and(eq(supportMessages.ticketId, ticketId), eq(supportMessages.internal, false));
}

/** A ticket's messages, oldest first; the team's notes only when asked for. */
export async function threadOf(
  database: Database,
  ticketId: string,
  { withNotes }: { withNotes: boolean },
): Promise<ThreadMessage[]> {
  return database
    .select(messageColumns)
    .from(supportMessages)
    .where(visibleMessages(ticketId, withNotes))
    .orderBy(supportMessages.createdAt, supportMessages.id);
}

/**
 * Messages a ticket's page shows at most (issue 53, finding 9): 300 replies of 4 KB made the
 * operator's page 2.5 MB. The newest page first; older ones behind a link.
 */
export const THREAD_PAGE_SIZE = 50;

export interface ThreadPage {
  /** This page's messages, oldest first. */
  messages: ThreadMessage[];
  /** All the messages the viewer may see, and which page of them this is (1: the newest). */
  total: number;
  page: number;
  pages: number;
}

/** A ticket page's `?page=`: a whole number from 1, else the newest page. */
export function threadPageOf(url: string): number {
  const value = new URL(url).searchParams.get("page") ?? "";
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** One page of a ticket's messages: page 1 the newest THREAD_PAGE_SIZE, page 2 those before. */
export async function threadPage(
  database: Database,
  ticketId: string,
  { withNotes, page }: { withNotes: boolean; page: number },
): Promise<ThreadPage> {
  const where = visibleMessages(ticketId, withNotes);
  const [counted] = await database.select({ total: count() }).from(supportMessages).where(where);
  const total = counted?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / THREAD_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const newestFirst = await database
    .select(messageColumns)
    .from(supportMessages)
    .where(where)
    .orderBy(desc(supportMessages.createdAt), desc(supportMessages.id))
    .limit(THREAD_PAGE_SIZE)
    .offset((current - 1) * THREAD_PAGE_SIZE);
  return { messages: newestFirst.reverse(), total, page: current, pages };
}
