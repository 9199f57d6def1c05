/** Teams over HTTP for integration tests: GSTINs, the invitation mail's link, a page's words. */
import { expect } from "vitest";
import { gstinCheckCharacter } from "~/lib/gst";
import { textOf } from "./billing";
import { readOutbox } from "./mail";
import type { RunningTestServer } from "./server";

/** A well-formed GSTIN of state `code` (its check character computed). */
export const gstinFor = (code: string) =>
  `${code}AAGCK1234M1Z${gstinCheckCharacter(`${code}AAGCK1234M1Z`)}`;

/** The link of the latest team invitation mailed to `email` (the test fails without one). */
export function invitationLink(server: RunningTestServer, email: string): string {
  const mail = readOutbox(server.dataDir)
    .filter((message) => message.to.includes(email) && /invited you/.test(message.subject))
    .at(-1);
  const link = /\/team-invite\/[A-Za-z0-9_-]+/.exec(mail?.text ?? "")?.[0];
  expect(link, `an invitation mail to ${email}`).toBeDefined();
  return link!;
}

/** What a page or an action's answer says, as text. */
export const said = async (response: Response) => textOf(await response.text());
