import { z } from "zod";

/**
 * The support desk's words and forms, shared by the pages and the server: one schema per form,
 * checked in both places. The deadlines are the Consumer Protection (E-Commerce) Rules, 2020's:
 * a complaint is acknowledged within 48 hours and resolved within one month of receipt.
 */
export const TICKET_CATEGORIES = [
  "billing",
  "refund",
  "app",
  "account",
  "privacy",
  "other",
] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

export const TICKET_CATEGORY_LABELS: Record<TicketCategory, string> = {
  billing: "Billing or payment",
  refund: "A refund",
  app: "The desktop app",
  account: "My account or sign-in",
  privacy: "My personal data",
  other: "Something else",
};

/** Open: waiting for the team; answered: waiting for the customer; closed. */
export const TICKET_STATUSES = ["open", "answered", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** How the customer's pages say where a ticket stands. */
export const CUSTOMER_STATUS_LABELS: Record<TicketStatus, string> = {
  open: "Waiting for our reply",
  answered: "Answered: waiting for you",
  closed: "Closed",
};

/** How the team's pages say it. */
export const TEAM_STATUS_LABELS: Record<TicketStatus, string> = {
  open: "Waiting for us",
  answered: "Waiting for the customer",
  closed: "Closed",
};

/** The desk's views: what waits for the team (the default), for the customer, closed, all. */
export const DESK_VIEWS = ["waiting", "answered", "closed", "all"] as const;
export type DeskView = (typeof DESK_VIEWS)[number];

/** The first reply is due this long after a ticket is opened. */
export const REPLY_WITHIN_HOURS = 48;
/** A ticket is resolved (closed) within this many days. */
export const RESOLVE_WITHIN_DAYS = 30;

/**
 * A link to a new ticket with what it is about filled in (/account/support reads these): the
 * "Still stuck?" links of the billing pages.
 */
export function newTicketUrl(about: {
  category: TicketCategory;
  subject: string;
  invoice?: string;
}): string {
  const params = new URLSearchParams({ category: about.category, subject: about.subject });
  if (about.invoice) params.set("invoice", about.invoice);
  return `/account/support?${params}`;
}

/** "#1001": how a ticket number is written everywhere (pages, mail subjects, the admin list). */
export function ticketRef(number: number): string {
  return `#${number}`;
}

const MESSAGE_MAX = 5000;

const messageBody = z
  .string()
  .trim()
  .min(10, { error: "Write at least 10 characters." })
  .max(MESSAGE_MAX, { error: `Keep it under ${MESSAGE_MAX} characters.` });

/** An optional id from a select: "" is none. */
const optionalId = z
  .string()
  .trim()
  .transform((value) => (value === "" ? null : value))
  .pipe(z.uuid({ error: "Choose one from the list." }).nullable())
  .nullable()
  .default(null);

/** A customer opens a ticket. */
export const openTicketSchema = z.object({
  intent: z.literal("open"),
  category: z.enum(TICKET_CATEGORIES, { error: "Choose what your request is about." }),
  subject: z
    .string()
    .trim()
    .min(3, { error: "Write a short subject (at least 3 characters)." })
    .max(120, { error: "Keep the subject under 120 characters." }),
  message: messageBody,
  invoiceId: optionalId,
  deviceId: optionalId,
});
export type OpenTicketInput = z.output<typeof openTicketSchema>;

/** A message on a ticket: the customer's reply, or the team's reply or internal note. */
export const ticketMessageSchema = z.object({ message: messageBody });

/** Where a ticket stands against its deadlines at `now`. */
export interface TicketDeadlines {
  /** When the first reply is due, and whether that has passed with no reply. */
  replyDueAt: Date;
  replyOverdue: boolean;
  /** When it should be resolved by, and whether it is still open past that. */
  resolveBy: Date;
  resolutionOverdue: boolean;
}

export function ticketDeadlines(
  ticket: { createdAt: Date; firstReplyAt: Date | null; closedAt: Date | null },
  now: Date,
): TicketDeadlines {
  const replyDueAt = new Date(ticket.createdAt.getTime() + REPLY_WITHIN_HOURS * 3_600_000);
  const resolveBy = new Date(ticket.createdAt.getTime() + RESOLVE_WITHIN_DAYS * 86_400_000);
  return {
    replyDueAt,
    replyOverdue: ticket.firstReplyAt === null && ticket.closedAt === null && now > replyDueAt,
    resolveBy,
    resolutionOverdue: ticket.closedAt === null && now > resolveBy,
  };
}

/** "3 h", "2 days": how old a ticket is, in the largest whole unit. */
export function ageOf(since: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (minutes < 60) return minutes <= 1 ? "just now" : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}
