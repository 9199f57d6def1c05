/** The mails of teams (issue 37). */
import { site } from "~/config/site";
import { formatDate } from "~/lib/dates";
import type { MailMessage } from "./mailer.server";
import { renderTo } from "./templates";

/** At most `max` characters of words a person chose, on one line. */
const quoted = (words: string, max = 80) => {
  const line = words.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/**
 * An invitation to a team: sent to an address that may have no account yet. The team's and the
 * inviter's names are a stranger's words (finding 2): never in the subject, and in the body
 * shortened, quoted and said to be theirs, beside the inviter's address.
 */
export function teamInvitationMessage(input: {
  to: string;
  team: string;
  inviter: string;
  inviterEmail: string;
  role: string;
  url: string;
  expiresAt: Date;
}): MailMessage {
  // Addressed to a mailbox, not to a person we know: no name in the greeting.
  return renderTo(
    { to: input.to, name: "" },
    {
      subject: `A ${site.product.name} user invited you to join their team`,
      paragraphs: [
        `${input.inviterEmail || "A user"} (who gives their name as “${quoted(input.inviter, 60)}”) invited ${input.to} to join their team on ${site.product.name}, as ${input.role.toLowerCase()}. They call the team “${quoted(input.team)}”: their words, not ours.`,
        `Open the link to accept or decline. You sign in, or create an account, with this address (${input.to}): the invitation works for no other.`,
      ],
      action: { label: "See the invitation", url: input.url },
      footnote: `The link works once and expires on ${formatDate(input.expiresAt.toISOString())}. If you did not expect it, ignore this message: ${site.product.name} never asks you to act on your account through a team invitation.`,
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
