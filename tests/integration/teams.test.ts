/**
 * Issue 37, point 1: teams. A signed-in person creates a team with the company's billing details
 * and GSTIN; the owner and billing managers invite people by email; an invitation is accepted
 * only by the invited address, once, before it expires; it can be declined, resent and
 * withdrawn; the owner removes people and changes roles; the last owner cannot leave; members do
 * not manage; anyone outside the team gets 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { pageText, textOf } from "../support/pages";
import { signInDevice } from "../support/desktop";
import { gstinFor, invitationLink as invitationLinkOf, said } from "../support/teams";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "team-test-password-1";
const COMPANY = {
  name: "Kaveri Robotics Private Limited",
  addressLine1: "14 Industrial Layout",
  addressLine2: "",
  city: "Bengaluru",
  postalCode: "560058",
  stateCode: "29",
  gstin: gstinFor("29"),
};

describe.each(engines())("teams on $name", (engine) => {
  let server: RunningTestServer;

  let boss = "";
  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "200" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signUp = (email: string) =>
    signUpVerified(server, { name: email.split("@")[0]!, email, password: PASSWORD });
  const invitationLink = (email: string) => invitationLinkOf(server, email);
  const createTeam = async (cookie: string, details = COMPANY) => {
    const response = await postForm(server, "/account/team", cookie, {
      intent: "create-team",
      ...details,
    });
    return { status: response.status, location: response.headers.get("location"), response };
  };

  it("a team with its GSTIN; invitations accepted by the invited address only, once; roles; 404 outside", async () => {
    const owner = await signUp("priya@kaveri.example");
    const wrongGstin = await createTeam(owner, { ...COMPANY, gstin: gstinFor("27") });
    expect(wrongGstin.status).toBe(400);
    expect(textOf(await wrongGstin.response.text())).toContain(
      "This GSTIN is registered in state 27, not Karnataka",
    );

    const created = await createTeam(owner);
    expect(created.status).toBe(302);
    const teamPath = created.location!.replace(/\?.*$/, "");
    expect(teamPath).toMatch(/^\/account\/team\/[A-Za-z0-9]+$/);
    const page = await pageText(server, teamPath, owner);
    expect(page).toContain("Kaveri Robotics Private Limited Your role: Owner.");
    expect(await pageText(server, "/account/team", owner)).toContain(
      "Kaveri Robotics Private Limited · Owner",
    );

    const invite = (email: string, role = "member", cookie = owner) =>
      postForm(server, teamPath, cookie, { intent: "invite", email, role });
    for (const email of ["arun@kaveri.example", "bela@kaveri.example"])
      expect((await invite(email)).status).toBe(200);
    expect(await said(await invite("chitra@kaveri.example", "billing"))).toContain(
      "Invitation sent to chitra@kaveri.example. It works for a week.",
    );
    // Inviting the same address again sends a new invitation; the earlier link stops working.
    expect(await said(await invite("arun@kaveri.example"))).toContain(
      "Invitation sent to arun@kaveri.example.",
    );
    await server.jobsSettled();

    // Arun accepts with his own address; the link then works no more.
    const arun = await signUp("arun@kaveri.example");
    const arunLink = invitationLink("arun@kaveri.example");
    expect(await pageText(server, arunLink, arun)).toContain("Accept and join");
    const accepted = await postForm(server, arunLink, arun, { intent: "accept" });
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe(`${teamPath}?joined=none`);
    expect(await pageText(server, teamPath, arun)).toContain("Your role: Member.");
    // The owner sees how many devices each person has signed in, never which (point 7); a member
    // sees no counts.
    await signInDevice(server, arun, "Arun's laptop");
    expect(await pageText(server, teamPath, owner)).toContain("arun@kaveri.example Member, since");
    expect(await pageText(server, teamPath, owner)).toMatch(
      /arun@kaveri\.example Member, since \d{1,2} [A-Z][a-z]{2} \d{4}; 1 device signed in/,
    );
    expect(await pageText(server, teamPath, owner)).not.toContain("Arun's laptop");
    expect(await pageText(server, teamPath, arun)).not.toContain("device");
    const again = await postForm(server, arunLink, arun, { intent: "accept" });
    expect(again.status).toBe(409);
    expect(await said(again)).toContain("This invitation is no longer valid");

    // Bela's link, opened by someone else: refused, on the page and if posted anyway.
    const dev = await signUp("dev@elsewhere.example");
    const belaLink = invitationLink("bela@kaveri.example");
    expect(await pageText(server, belaLink, dev)).toContain(
      "You are signed in as dev@elsewhere.example, and this invitation is for bela@kaveri.example.",
    );
    const stolen = await postForm(server, belaLink, dev, { intent: "accept" });
    expect(stolen.status).toBe(403);
    expect(await said(stolen)).toContain("This invitation was sent to another email address.");
    // Bela declines.
    const bela = await signUp("bela@kaveri.example");
    const declined = await postForm(server, belaLink, bela, { intent: "decline" });
    expect(declined.status).toBe(302);
    expect(
      (await server.sql(`select status from invitation where email = 'bela@kaveri.example'`))[0],
    ).toEqual({ status: "rejected" });

    // Chitra's: resent (a second mail, a new week), then withdrawn: the link no longer works.
    const [chitraInvite] = await server.sql(
      `select id from invitation where email = 'chitra@kaveri.example'`,
    );
    const resent = await postForm(server, teamPath, owner, {
      intent: "resend",
      invitationId: String(chitraInvite!.id),
    });
    expect(await said(resent)).toContain("Sent again to chitra@kaveri.example, for another week.");
    await server.jobsSettled();
    expect(
      readOutbox(server.dataDir).filter((mail) => mail.to.includes("chitra@kaveri.example")),
    ).toHaveLength(2);
    expect(
      await said(
        await postForm(server, teamPath, owner, {
          intent: "withdraw",
          invitationId: String(chitraInvite!.id),
        }),
      ),
    ).toContain("Invitation withdrawn");
    const chitra = await signUp("chitra@kaveri.example");
    expect(await pageText(server, invitationLink("chitra@kaveri.example"), chitra)).toContain(
      "This invitation is no longer valid",
    );

    // An expired invitation.
    expect((await invite("dina@kaveri.example")).status).toBe(200);
    await server.sql(
      `update invitation set expires_at = now() - interval '1 minute' where email = 'dina@kaveri.example'`,
    );
    await server.jobsSettled();
    const dina = await signUp("dina@kaveri.example");
    const late = await postForm(server, invitationLink("dina@kaveri.example"), dina, {
      intent: "accept",
    });
    expect(late.status).toBe(409);

    // A member does not manage: no billing details, no inviting.
    expect(await pageText(server, teamPath, arun)).toContain(
      "The team's owner and billing managers manage its billing details and invoices.",
    );
    const memberInvites = await invite("eve@kaveri.example", "member", arun);
    expect(memberInvites.status).toBe(403);
    expect(await said(memberInvites)).toContain(
      "Only the team's owner and billing managers invite people.",
    );
    // Outsiders: 404 for the page and its actions.
    expect((await getWithCookies(server, teamPath, dev)).status).toBe(404);
    expect((await postForm(server, teamPath, dev, { intent: "leave" })).status).toBe(404);

    // The owner makes Arun billing manager, then removes him; the last owner cannot leave.
    const [arunMember] = await server.sql(
      `select m.id from member m join "user" u on u.id = m.user_id where u.email = 'arun@kaveri.example'`,
    );
    const memberId = String(arunMember!.id);
    expect(
      await said(
        await postForm(server, teamPath, owner, { intent: "role", memberId, role: "billing" }),
      ),
    ).toContain("Role changed to billing manager.");
    expect(await pageText(server, teamPath, arun)).toContain("Your role: Billing manager.");
    expect(
      await said(await postForm(server, teamPath, owner, { intent: "remove", memberId })),
    ).toContain("arun@kaveri.example left the team.");
    expect((await getWithCookies(server, teamPath, arun)).status).toBe(404);
    const leave = await postForm(server, teamPath, owner, { intent: "leave" });
    expect(leave.status).toBe(409);
    expect(await said(leave)).toContain("You are the team's only owner");

    // The billing details, kept for the team's invoices.
    expect(
      await server.sql(
        `select name, gstin, state_code from team_profiles where organization_id = '${teamPath.split("/").at(-1)}'`,
      ),
    ).toEqual([{ name: COMPANY.name, gstin: COMPANY.gstin, state_code: "29" }]);
  });

  it("a team keeps an owner when its only owner deletes their account; an empty team goes", async () => {
    const olga = await signUp("olga@tapti.example");
    const created = await createTeam(olga, { ...COMPANY, name: "Tapti Instruments LLP" });
    const teamPath = created.location!.replace(/\?.*$/, "");
    const teamId = teamPath.split("/").at(-1)!;
    for (const [email, role] of [
      ["pat@tapti.example", "billing"],
      ["quinn@tapti.example", "member"],
    ] as const) {
      expect(
        (await postForm(server, teamPath, olga, { intent: "invite", email, role })).status,
      ).toBe(200);
    }
    await server.jobsSettled();
    const pat = await signUp("pat@tapti.example");
    const quinn = await signUp("quinn@tapti.example");
    // Quinn joins first; Pat, the billing manager, still comes before a member.
    for (const [cookie, email] of [
      [quinn, "quinn@tapti.example"],
      [pat, "pat@tapti.example"],
    ] as const)
      expect(
        (await postForm(server, invitationLink(email), cookie, { intent: "accept" })).status,
      ).toBe(302);

    const gone = await postForm(server, "/account/security", olga, {
      intent: "delete-account",
      password: PASSWORD,
    });
    expect(gone.status).toBeLessThan(400);
    expect(await pageText(server, teamPath, pat)).toContain("Your role: Owner.");
    expect(await pageText(server, teamPath, quinn)).toContain("Your role: Member.");
    // The operator sees the team on each member's customer page.
    const [patRow] = await server.sql(`select id from "user" where email = 'pat@tapti.example'`);
    expect(await pageText(server, `/admin/customers/${String(patRow!.id)}`, boss)).toContain(
      "Tapti Instruments LLP · Owner",
    );
    // And every team on /admin/teams, found by name or GSTIN.
    const listed = await pageText(server, "/admin/teams?q=tapti", boss);
    expect(listed).toContain(
      `Tapti Instruments LLP ${COMPANY.gstin} Karnataka pat@tapti.example 2 0`,
    );
    expect(listed).not.toContain("Kaveri Robotics");
    expect(await pageText(server, `/admin/teams?q=${COMPANY.gstin.toLowerCase()}`, boss)).toContain(
      "Tapti Instruments LLP",
    );

    // A team of one goes with its owner's account.
    const solo = await signUp("solo@yamuna.example");
    const alone = await createTeam(solo, { ...COMPANY, name: "Yamuna Labs" });
    const aloneId = alone.location!.replace(/\?.*$/, "").split("/").at(-1)!;
    await postForm(server, "/account/security", solo, {
      intent: "delete-account",
      password: PASSWORD,
    });
    expect(
      await server.sql(`select id from organization where id in ('${teamId}', '${aloneId}')`),
    ).toEqual([{ id: teamId }]);
  });
});
