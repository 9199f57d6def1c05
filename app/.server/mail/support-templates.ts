/**
 * The support desk's messages to a customer: the acknowledgement of a new ticket, the team's
 * reply, the ticket closed. One mail thread per ticket (the acknowledgement starts it, the others
 * answer it), and each names the Grievance Officer, as the e-commerce rules ask.
 */
import { site } from "~/config/site";
import { REPLY_WITHIN_HOURS, RESOLVE_WITHIN_DAYS, ticketRef } from "~/lib/support";
import type { MailMessage } from "./mailer.server";
import { renderTo } from "./templates";

interface TicketMail {
  to: string;
  name: string;
  ticket: { id: string; number: number; subject: string };
  /** The ticket's page on the site. */
  url: string;
}

/** The Message-ID (local part) of a ticket's first mail; the others answer it. */
export function ticketThreadId(ticketId: string): string {
  return `ticket-${ticketId}`;
}

function grievanceNote(): string {
  const officer = site.company.grievanceOfficer;
  return `Not satisfied with how we handle this? Our Grievance Officer, ${officer.name} (${officer.designation}), is at ${officer.email} or ${officer.phone}.`;
}

const subjectOf = (ticket: TicketMail["ticket"]) =>
  `[${site.product.name} ${ticketRef(ticket.number)}] ${ticket.subject}`;

export function ticketOpenedMessage(input: TicketMail): MailMessage {
  return {
    ...renderTo(input, {
      subject: subjectOf(input.ticket),
      paragraphs: [
        `We have your request, ticket ${ticketRef(input.ticket.number)}: “${input.ticket.subject}”. A person on our team will reply within ${REPLY_WITHIN_HOURS} hours, usually within one working day, and we resolve every request within ${RESOLVE_WITHIN_DAYS} days.`,
        "You can follow the ticket and add to it on the site. Please quote its number if you write to us another way.",
      ],
      action: { label: `Open ticket ${ticketRef(input.ticket.number)}`, url: input.url },
      footnote: grievanceNote(),
    }),
    messageId: ticketThreadId(input.ticket.id),
  };
}

export function ticketReplyMessage(
  input: TicketMail & { from: string; message: string },
): MailMessage {
  return {
    ...renderTo(input, {
      subject: `Re: ${subjectOf(input.ticket)}`,
      paragraphs: [
        `${input.from} replied to your ticket ${ticketRef(input.ticket.number)}:`,
        // The reply's own paragraphs stay paragraphs in the HTML part.
        ...input.message
          .split(/\n\s*\n/)
          .map((paragraph) => paragraph.trim())
          .filter(Boolean),
        "Reply on the site to answer: the ticket keeps the whole conversation.",
      ],
      action: { label: `Reply to ticket ${ticketRef(input.ticket.number)}`, url: input.url },
      footnote: grievanceNote(),
    }),
    inReplyTo: ticketThreadId(input.ticket.id),
  };
}

export function ticketClosedMessage(input: TicketMail): MailMessage {
  return {
    ...renderTo(input, {
      subject: `Closed: ${subjectOf(input.ticket)}`,
      paragraphs: [
        `We closed your ticket ${ticketRef(input.ticket.number)}: “${input.ticket.subject}”.`,
        "If it is not solved, reply on the site: that opens it again, with everything said so far.",
      ],
      action: { label: `See ticket ${ticketRef(input.ticket.number)}`, url: input.url },
      footnote: grievanceNote(),
    }),
    inReplyTo: ticketThreadId(input.ticket.id),
  };
}
