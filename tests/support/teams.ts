/** Teams over HTTP for integration tests: GSTINs, the invitation mail's link, a page's words. */
import { expect } from "vitest";
import { gstinCheckCharacter } from "~/lib/gst";
import { postForm } from "./auth";
import { sandboxPay } from "./billing";
import { pageText, textOf } from "./pages";
import { eventually } from "./eventually";
import { seatsText } from "~/lib/seats";
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

/** A company's billing details for a new team (a Karnataka GSTIN unless told). */
export const company = (name: string, stateCode = "29", city = "Bengaluru") => ({
  name,
  addressLine1: "14 Industrial Layout",
  addressLine2: "",
  city,
  postalCode: stateCode === "29" ? "560058" : "411001",
  stateCode,
  gstin: gstinFor(stateCode),
});

/** Creates a team as its page does; its path (/account/team/<id>) and id. */
export async function newTeam(
  server: RunningTestServer,
  cookie: string,
  details: ReturnType<typeof company>,
): Promise<{ path: string; id: string }> {
  const created = await postForm(server, "/account/team", cookie, {
    intent: "create-team",
    ...details,
  });
  expect(created.status).toBe(302);
  const path = created.headers.get("location")!.replace(/\?.*$/, "");
  return { path, id: path.split("/").at(-1)! };
}

/** Starts the team's checkout for `seats` as its page does; the Razorpay subscription id. */
export async function startSeats(
  server: RunningTestServer,
  cookie: string,
  path: string,
  seats: number,
  cycle = "monthly",
) {
  const response = await postForm(server, `${path}/seats.data`, cookie, {
    intent: "start",
    cycle,
    seats: String(seats),
  });
  const body = await response.text();
  return {
    status: response.status,
    subscriptionId: /sub_[A-Za-z0-9]{14}/.exec(body)?.[0] ?? null,
    body,
  };
}

/** Pays (or authorises) a started seat checkout in the sandbox and returns to the team's page. */
export async function paySeats(
  server: RunningTestServer,
  cookie: string,
  path: string,
  subscriptionId: string,
  method: "card" | "upi" = "card",
): Promise<void> {
  const paid = await sandboxPay(server, subscriptionId, "success", method);
  expect(paid.status).toBe(200);
  const verified = await postForm(server, `${path}/seats`, cookie, {
    intent: "verify",
    ...paid.body,
  });
  expect(verified.headers.get("location")).toBe(`${path}?paid=1#seats`);
}

/**
 * A new team of `owner` (a signed-in cookie) with `seats` monthly seats paid in the sandbox, once
 * its page shows them: its path and id, and the subscription's Razorpay id.
 */
export async function teamWithPaidSeats(
  server: RunningTestServer,
  owner: string,
  name: string,
  seats: number,
) {
  const team = await newTeam(server, owner, company(name));
  const started = await startSeats(server, owner, team.path, seats);
  expect(started.status, started.body).toBe(200);
  await paySeats(server, owner, team.path, started.subscriptionId!);
  await eventually(
    async () => (await pageText(server, team.path, owner)).includes(`${seatsText(seats)} of Pro`),
    20_000,
    "the seats",
  );
  return { team, subscriptionId: started.subscriptionId! };
}
