/**
 * The team's side of the support desk (/admin/support): every ticket with its age against the
 * deadlines, and the actions on one: reply (mailed to the customer), internal note, assign,
 * close, reopen. Each checks the session is an admin's, whoever calls it.
 */
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import {
  type DeskView,
  REPLY_WITHIN_HOURS,
  RESOLVE_WITHIN_DAYS,
  type TicketCategory,
  ticketDeadlines,
  type TicketDeadlines,
  ticketRef,
  type TicketStatus,
} from "~/lib/support";
import { assertAdmin, roleOf, type Session } from "../auth/session";
import { type Database, db as defaultDb, type Executor } from "../db";
import { supportMessages, supportTickets, user as users } from "../db/schema";
import { env } from "../env";
import { AppError } from "../http/errors";
import { kickJobs } from "../jobs/kick";
import { queueMail } from "../mail/outbox.server";
import { ticketClosedMessage, ticketReplyMessage } from "../mail/support-templates";
import { type ThreadPage, threadPage, ticketWithLinks } from "./thread.server";
import { ticketUrl } from "./urls.server";

export interface DeskRow extends TicketDeadlines {
  number: number;
  subject: string;
  category: TicketCategory;
  status: TicketStatus;
  customerId: string;
  customerEmail: string;
  assigneeName: string | null;
  createdAt: Date;
  lastMessageAt: Date;
}

export interface DeskCounts {
  waiting: number;
  replyOverdue: number;
  resolutionOverdue: number;
}

const assignees = sql`(select coalesce(nullif(${users.name}, ''), ${users.email}) from ${users} where ${users.id} = ${supportTickets.assigneeId})`;

/** Tickets in a view, oldest waiting first (the order they are due in); at most 200. */
export async function deskTickets(
  view: DeskView,
  options: { mine?: string; now?: Date; database?: Database } = {},
): Promise<DeskRow[]> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  const conditions: SQL[] = [];
  if (view === "waiting") conditions.push(eq(supportTickets.status, "open"));
  if (view === "answered") conditions.push(eq(supportTickets.status, "answered"));
  if (view === "closed") conditions.push(eq(supportTickets.status, "closed"));
  if (options.mine) conditions.push(eq(supportTickets.assigneeId, options.mine));
  const rows = await database
    .select({
      number: supportTickets.number,
      subject: supportTickets.subject,
      category: supportTickets.category,
      status: supportTickets.status,
      customerId: supportTickets.userId,
      customerEmail: users.email,
      assigneeName: assignees.mapWith(String),
      createdAt: supportTickets.createdAt,
      lastMessageAt: supportTickets.lastMessageAt,
      firstReplyAt: supportTickets.firstReplyAt,
      closedAt: supportTickets.closedAt,
    })
    .from(supportTickets)
    .innerJoin(users, eq(users.id, supportTickets.userId))
    .where(and(...conditions))
    .orderBy(view === "closed" ? desc(supportTickets.closedAt) : asc(supportTickets.lastMessageAt))
    .limit(200);
  return rows.map(({ firstReplyAt, closedAt, assigneeName, ...row }) => ({
    ...row,
    assigneeName: assigneeName ?? null,
    ...ticketDeadlines({ createdAt: row.createdAt, firstReplyAt, closedAt }, now),
  }));
}

/** What waits for the team, and how much of it is past a deadline. */
export async function deskCounts(
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<DeskCounts> {
  const replyDue = new Date(now.getTime() - REPLY_WITHIN_HOURS * 3_600_000);
  const resolveDue = new Date(now.getTime() - RESOLVE_WITHIN_DAYS * 86_400_000);
  const [row] = await database
    .select({
      waiting: sql<number>`count(*) filter (where ${supportTickets.status} = 'open')`.mapWith(
        Number,
      ),
      replyOverdue:
        sql<number>`count(*) filter (where ${supportTickets.firstReplyAt} is null and ${supportTickets.status} <> 'closed' and ${supportTickets.createdAt} < ${replyDue})`.mapWith(
          Number,
        ),
      resolutionOverdue:
        sql<number>`count(*) filter (where ${supportTickets.status} <> 'closed' and ${supportTickets.createdAt} < ${resolveDue})`.mapWith(
          Number,
        ),
    })
    .from(supportTickets);
  return row ?? { waiting: 0, replyOverdue: 0, resolutionOverdue: 0 };
}

export interface DeskTicket extends TicketDeadlines {
  id: string;
  number: number;
  subject: string;
  category: TicketCategory;
  status: TicketStatus;
  createdAt: Date;
  lastMessageAt: Date;
  firstReplyAt: Date | null;
  closedAt: Date | null;
  assigneeId: string | null;
  invoiceNumber: string | null;
  deviceName: string | null;
  customer: { id: string; email: string; name: string };
  /** One page of the thread, internal notes included (`page`: 1, the newest). */
  thread: ThreadPage;
}

/** One ticket with a page of its thread (internal notes too), for the team; else null. */
export async function deskTicket(
  session: Session,
  number: number,
  options: { now?: Date; page?: number; database?: Database } = {},
): Promise<DeskTicket | null> {
  assertAdmin(session);
  const database = options.database ?? defaultDb();
  const ticket = await ticketWithLinks(database, eq(supportTickets.number, number));
  if (!ticket) return null;
  const [customer] = await database
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, ticket.userId));
  if (!customer) return null;
  const thread = await threadPage(database, ticket.id, {
    withNotes: true,
    page: options.page ?? 1,
  });
  const { userId: _userId, ...rest } = ticket;
  return {
    ...rest,
    customer,
    thread,
    ...ticketDeadlines(ticket, options.now ?? new Date()),
  };
}

/**
 * The people a ticket can be assigned to: every admin (`roleOf`: the stored role, or a verified
 * address in ADMIN_EMAILS), by name.
 */
export async function deskAssignees(
  database: Database = defaultDb(),
): Promise<{ id: string; name: string }[]> {
  const listed = env().ADMIN_EMAILS;
  const rows = await database
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      role: users.role,
    })
    .from(users)
    .where(
      or(
        eq(users.role, "admin"),
        listed.length > 0
          ? and(eq(users.emailVerified, true), inArray(sql`lower(${users.email})`, listed))
          : undefined,
      ),
    )
    .orderBy(users.email)
    .limit(100);
  return rows
    .filter((row) => roleOf(row) === "admin")
    .map((row) => ({ id: row.id, name: row.name ? `${row.name} (${row.email})` : row.email }));
}

interface LockedTicket {
  id: string;
  number: number;
  subject: string;
  status: TicketStatus;
  firstReplyAt: Date | null;
  customerEmail: string;
  customerName: string;
}

/** Runs `change` on the ticket, locked for the transaction; 404 when there is no such ticket. */
async function withTicket<T>(
  session: Session,
  number: number,
  database: Database,
  change: (tx: Executor, ticket: LockedTicket) => Promise<T>,
): Promise<T> {
  assertAdmin(session);
  const result = await database.transaction(async (tx) => {
    const [ticket] = await tx
      .select({
        id: supportTickets.id,
        number: supportTickets.number,
        subject: supportTickets.subject,
        status: supportTickets.status,
        firstReplyAt: supportTickets.firstReplyAt,
        customerEmail: users.email,
        customerName: users.name,
      })
      .from(supportTickets)
      .innerJoin(users, eq(users.id, supportTickets.userId))
      .where(eq(supportTickets.number, number))
      .for("update", { of: supportTickets });
    if (!ticket) throw new AppError("not_found", `There is no ticket ${ticketRef(number)}.`);
    return change(tx, ticket);
  });
  kickJobs();
  return result;
}

function mailTarget(ticket: LockedTicket) {
  return {
    to: ticket.customerEmail,
    name: ticket.customerName,
    ticket: { id: ticket.id, number: ticket.number, subject: ticket.subject },
    url: ticketUrl("customer", ticket.number),
  };
}

/** The team answers: mailed to the customer, and the ticket waits for them. */
export async function replyAsTeam(
  session: Session,
  number: number,
  body: string,
  database: Database = defaultDb(),
): Promise<void> {
  await withTicket(session, number, database, async (tx, ticket) => {
    const authorName = teamName(session);
    const [message] = await tx
      .insert(supportMessages)
      .values({ ticketId: ticket.id, authorId: session.user.id, authorName, side: "team", body })
      .returning({ id: supportMessages.id, createdAt: supportMessages.createdAt });
    if (!message) throw new Error("reply was not stored");
    await tx
      .update(supportTickets)
      .set({
        status: "answered",
        closedAt: null,
        lastMessageAt: message.createdAt,
        firstReplyAt: ticket.firstReplyAt ?? message.createdAt,
      })
      .where(eq(supportTickets.id, ticket.id));
    await queueMail(
      tx,
      ticketReplyMessage({ ...mailTarget(ticket), from: authorName, message: body }),
      `support:reply:${message.id}`,
    );
  });
}

/** A note only the team sees: nothing is mailed and the ticket's state does not change. */
export async function addInternalNote(
  session: Session,
  number: number,
  body: string,
  database: Database = defaultDb(),
): Promise<void> {
  await withTicket(session, number, database, async (tx, ticket) => {
    await tx.insert(supportMessages).values({
      ticketId: ticket.id,
      authorId: session.user.id,
      authorName: teamName(session),
      side: "team",
      internal: true,
      body,
    });
  });
}

/** Gives the ticket to an admin (or to nobody); returns whom, in words. */
export async function assignTicket(
  session: Session,
  number: number,
  assigneeId: string | null,
  database: Database = defaultDb(),
): Promise<string> {
  let name = "nobody";
  if (assigneeId) {
    const [admin] = await database
      .select({
        name: users.name,
        email: users.email,
        emailVerified: users.emailVerified,
        role: users.role,
      })
      .from(users)
      .where(eq(users.id, assigneeId));
    if (!admin || roleOf(admin) !== "admin")
      throw new AppError("invalid", "Choose an administrator from the list.", {
        field: "assigneeId",
      });
    name = admin.name || admin.email;
  }
  await withTicket(session, number, database, async (tx, ticket) => {
    await tx.update(supportTickets).set({ assigneeId }).where(eq(supportTickets.id, ticket.id));
  });
  return name;
}

/** Closes the ticket and tells the customer (a reply from them opens it again). */
export async function closeTicket(
  session: Session,
  number: number,
  database: Database = defaultDb(),
): Promise<void> {
  await withTicket(session, number, database, async (tx, ticket) => {
    if (ticket.status === "closed")
      throw new AppError("conflict", `Ticket ${ticketRef(number)} is closed already.`);
    const [closed] = await tx
      .update(supportTickets)
      .set({ status: "closed", closedAt: sql`now()` })
      .where(eq(supportTickets.id, ticket.id))
      .returning({ closedAt: supportTickets.closedAt });
    await queueMail(
      tx,
      ticketClosedMessage(mailTarget(ticket)),
      `support:closed:${ticket.id}:${closed?.closedAt?.getTime() ?? Date.now()}`,
    );
  });
}

/** Opens a closed ticket again (it waits for the team); the customer is not mailed. */
export async function reopenTicket(
  session: Session,
  number: number,
  database: Database = defaultDb(),
): Promise<void> {
  await withTicket(session, number, database, async (tx, ticket) => {
    if (ticket.status !== "closed")
      throw new AppError("conflict", `Ticket ${ticketRef(number)} is not closed.`);
    await tx
      .update(supportTickets)
      .set({ status: "open", closedAt: null })
      .where(eq(supportTickets.id, ticket.id));
  });
}

/** How a team member signs a reply: their first name and the product ("Ananya from Pinout"). */
function teamName(session: Session): string {
  const first = session.user.name.trim().split(/\s+/)[0];
  return first ? `${first} from the support team` : "The support team";
}
