/** The mails of teams (issue 37). */
import { site } from "~/config/site";
import { formatDate } from "~/lib/dates";
import type { MailMessage } from "./mailer.server";
import { renderTo } from "./templates";

/** An invitation to a team: sent to an address that may have no account yet. */
export function teamInvitationMessage(input: {
  to: string;
  team: string;
  inviter: string;
  role: string;
  url: string;
  expiresAt: Date;
}): MailMessage {
  // Addressed to a mailbox, not to a person we know: no name in the greeting.
  return renderTo(
    { to: input.to, name: "" },
    {
      subject: `${input.inviter} invited you to the ${input.team} team on ${site.product.name}`,
      paragraphs: [
        `${input.inviter} invited ${input.to} to join the ${input.team} team on ${site.product.name}, as ${input.role.toLowerCase()}.`,
        `Open the link to accept or decline. You sign in, or create an account, with this address (${input.to}): the invitation works for no other.`,
      ],
      action: { label: "See the invitation", url: input.url },
      footnote: `The link works once and expires on ${formatDate(input.expiresAt.toISOString())}. If you did not expect it, ignore this message.`,
    },
  );
}

/**
 * A seat taken back because the team now pays for fewer (issue 53, finding 1): the person learns
 * it from us, not from the app falling back to Free.
 */
export function seatTakenBackMessage(input: {
  to: string;
  name: string;
  team: string;
  paidSeats: number;
  url: string;
}): MailMessage {
  return renderTo(
    { to: input.to, name: input.name },
    {
      subject: `Your ${site.product.name} Pro seat from a team has ended`,
      paragraphs: [
        `The team “${input.team}” now pays for ${input.paidSeats === 1 ? "1 seat" : `${input.paidSeats} seats`}, fewer than it had given, so the seat given to you most recently was taken back. Your account is on Free from now on, and the app says so at its next check.`,
        "You are still in the team. To get a seat again, ask the team's owner or billing manager; or buy Pro for yourself.",
      ],
      action: { label: "See your plan", url: input.url },
    },
  );
}
