/**
 * What a team may be called (issue 53, finding 2): its name goes into the invitation mails we
 * send to any address, so it must not carry a link or pass for a notice from us. Shared by the
 * team's forms (a field hint) and the server (the check that counts).
 */
import { site } from "~/config/site";

export const TEAM_NAME_MAX = 120;

/** A web address: a scheme, "www.", or a host name with a common top-level domain. */
const LINK =
  /(?:[a-z][a-z0-9+.-]*:\/\/|www\.|[a-z0-9-]\.(?:com|net|org|info|biz|io|in|co|app|dev|xyz|top|site|online|link|ly|me|ru|cn|tk|click|shop)\b)/i;

/** Why a team may not have this name, or null when it may. */
export function teamNameProblem(name: string): string | null {
  if (name.length > TEAM_NAME_MAX) return `Use at most ${TEAM_NAME_MAX} characters.`;
  // Control characters and angle brackets: nothing that could break a mail's plain text apart.
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f<>]/.test(name)) return "Use letters, digits and punctuation only.";
  if (LINK.test(name)) return "A team's name cannot contain a web address.";
  if (name.toLowerCase().includes(site.product.name.toLowerCase()))
    return `A team's name cannot contain ${site.product.name}'s own name.`;
  return null;
}
