/**
 * The customer's side of the support desk: open a ticket (acknowledged by mail at once), list
 * and read their own, reply (which reopens a closed one). Every read is scoped to the signed-in
 * customer: another customer's ticket number is "not found", never "forbidden".
 */
import { and, desc, eq, sql } from "drizzle-orm";
import {
  type OpenTicketInput,
  TICKET_CATEGORY_LABELS,
  ticketRef,
  type TicketCategory,
  type TicketStatus,
} from "~/lib/support";
import { raiseAlert } from "../alerts/raise.server";
import type { Session } from "../auth/session";
import { type Database, db as defaultDb } from "../db";
import { desktopDevices, invoices, supportMessages, supportTickets } from "../db/schema";
import { AppError } from "../http/errors";
import { kickJobs } from "../jobs/kick";
import { queueMail } from "../mail/outbox.server";
import { ticketOpenedMessage } from "../mail/support-templates";
import { hitRateLimit } from "../security/rate-limit.server";
import { summaryColumns, type ThreadPage, threadPage, ticketWithLinks } from "./thread.server";
import { ticketUrl } from "./urls.server";

/** Tickets one customer may open in an hour: enough for anyone, not for a script. */
export const TICKETS_PER_HOUR = 10;

/**
 * Replies one customer may add in an hour, over all their tickets (issue 53, finding 9: 300
 * replies in 3 seconds had no limit): a long conversation, not a script.
 */
export const REPLIES_PER_HOUR = 30;

export interface TicketSummary {
  number: number;
  subject: string;
  category: TicketCategory;
  status: TicketStatus;
  createdAt: Date;
  lastMessageAt: Date;
}

export interface CustomerTicket extends TicketSummary {
  id: string;
  closedAt: Date | null;
  invoiceNumber: string | null;
  deviceName: string | null;
  /** One page of the thread (`page`: 1, the newest). */
  thread: ThreadPage;
}

/** What a customer may point a new ticket at: their invoices and their devices. */
export interface TicketChoices {
  invoices: { id: string; number: string; issuedAt: Date }[];
  devices: { id: string; name: string; platform: string }[];
}

export async function ticketChoices(
  userId: string,
  database: Database = defaultDb(),
): Promise<TicketChoices> {
  const [invoiceRows, deviceRows] = await Promise.all([
    database
      .select({ id: invoices.id, number: invoices.number, issuedAt: invoices.issuedAt })
      .from(invoices)
      .where(and(eq(invoices.userId, userId), eq(invoices.kind, "invoice")))
      .orderBy(desc(invoices.issuedAt))
      .limit(24),
    database
      .select({
        id: desktopDevices.id,
        name: desktopDevices.name,
        platform: desktopDevices.platform,
      })
      .from(desktopDevices)
      .where(eq(desktopDevices.userId, userId))
      .orderBy(desc(desktopDevices.lastSeenAt))
      .limit(24),
  ]);
  return { invoices: invoiceRows, devices: deviceRows };
}

/**
 * Opens a ticket with its first message and queues the acknowledgement, in one transaction:
 * either the customer has a number and a mail is on its way, or nothing was stored.
 */
export async function openTicket(
  session: Session,
  input: OpenTicketInput,
  database: Database = defaultDb(),
): Promise<{ number: number }> {
  const { user } = session;
  const limit = await hitRateLimit(`support:${user.id}`, TICKETS_PER_HOUR, 60 * 60, database);
  if (!limit.allowed)
    throw new AppError(
      "rate_limited",
      `You have opened ${TICKETS_PER_HOUR} tickets in the last hour. Add to one of them below, or wait ${Math.ceil(limit.retryAfter / 60)} minutes.`,
      { retryAfter: limit.retryAfter },
    );
  // Only the customer's own invoice or device: an id from anywhere else is not on their list.
  const choices = await ticketChoices(user.id, database);
  if (input.invoiceId && !choices.invoices.some((each) => each.id === input.invoiceId))
    throw new AppError("invalid", "Choose one of your invoices from the list.", {
      field: "invoiceId",
    });
  if (input.deviceId && !choices.devices.some((each) => each.id === input.deviceId))
    throw new AppError("invalid", "Choose one of your devices from the list.", {
      field: "deviceId",
    });

  const opened = await database.transaction(async (tx) => {
    const [ticket] = await tx
      .insert(supportTickets)
      .values({
        userId: user.id,
        category: input.category,
        subject: input.subject,
        invoiceId: input.invoiceId,
        deviceId: input.deviceId,
      })
      .returning({ id: supportTickets.id, number: supportTickets.number });
    if (!ticket) throw new Error("ticket was not stored");
    await tx.insert(supportMessages).values({
      ticketId: ticket.id,
      authorId: user.id,
      authorName: user.name || user.email,
      side: "customer",
      body: input.message,
    });
    await queueMail(
      tx,
      ticketOpenedMessage({
        to: user.email,
        name: user.name,
        ticket: { id: ticket.id, number: ticket.number, subject: input.subject },
        url: ticketUrl("customer", ticket.number),
      }),
      `support:opened:${ticket.id}`,
    );
    await raiseAlert(tx, {
      kind: "ticket-new",
      key: `ticket-new:${ticket.id}`,
      summary: `${user.email} opened ticket ${ticketRef(ticket.number)}: “${input.subject}” (${TICKET_CATEGORY_LABELS[input.category]}).`,
      path: `/admin/support/${ticket.number}`,
    });
    return ticket;
  });
  kickJobs();
  return { number: opened.number };
}

/** The customer's tickets, the ones still open first, then the most recently active. */
export async function customerTickets(
  userId: string,
  database: Database = defaultDb(),
): Promise<TicketSummary[]> {
  return database
    .select(summaryColumns)
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(
      sql`case when ${supportTickets.status} = 'closed' then 1 else 0 end`,
      desc(supportTickets.lastMessageAt),
    )
    .limit(200);
}

/** One of the customer's tickets with its thread (never the team's internal notes); else null. */
export async function customerTicket(
  userId: string,
  number: number,
  { page = 1, database = defaultDb() }: { page?: number; database?: Database } = {},
): Promise<CustomerTicket | null> {
  const ticket = await ticketWithLinks(
    database,
    and(eq(supportTickets.userId, userId), eq(supportTickets.number, number)),
  );
  if (!ticket) return null;
  const thread = await threadPage(database, ticket.id, { withNotes: false, page });
  return { ...ticket, thread };
}

/**
 * The customer adds to their ticket: it waits for the team again, and a closed one reopens.
 * Returns whether it was closed.
 */
export async function replyAsCustomer(
  session: Session,
  number: number,
  body: string,
  database: Database = defaultDb(),
): Promise<{ reopened: boolean }> {
  const { user } = session;
  const limit = await hitRateLimit(`support-reply:${user.id}`, REPLIES_PER_HOUR, 60 * 60, database);
  if (!limit.allowed) {
    const minutes = Math.max(1, Math.ceil(limit.retryAfter / 60));
    throw new AppError(
      "rate_limited",
      `You have sent ${REPLIES_PER_HOUR} replies in the last hour. Wait ${minutes} ${minutes === 1 ? "minute" : "minutes"}, or add everything to one reply.`,
      { retryAfter: limit.retryAfter },
    );
  }
  return database.transaction(async (tx) => {
    const [ticket] = await tx
      .select({ id: supportTickets.id, status: supportTickets.status })
      .from(supportTickets)
      .where(and(eq(supportTickets.userId, user.id), eq(supportTickets.number, number)))
      .for("update");
    if (!ticket) throw new AppError("not_found", `You have no ticket ${ticketRef(number)}.`);
    const [message] = await tx
      .insert(supportMessages)
      .values({
        ticketId: ticket.id,
        authorId: user.id,
        authorName: user.name || user.email,
        side: "customer",
        body,
      })
      .returning({ createdAt: supportMessages.createdAt });
    await tx
      .update(supportTickets)
      .set({ status: "open", closedAt: null, lastMessageAt: message?.createdAt ?? new Date() })
      .where(eq(supportTickets.id, ticket.id));
    return { reopened: ticket.status === "closed" };
  });
}
