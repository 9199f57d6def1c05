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
