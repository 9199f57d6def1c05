/**
 * Issue 53, finding 2: invitations are not a mail cannon. A team's name cannot carry a link or
 * pass for a notice from us; invitation mails keep the team's and inviter's words out of the
 * subject and quote them as theirs; a team that never paid has a few invitations waiting at most;
 * and each address, inviter and team has a rate, resends included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";
import { company, newTeam, said } from "../support/teams";
import { INVITATION_LIMITS } from "~/.server/teams/teams.server";

const PASSWORD = "invitations-password-1";

describe.each(engines())("team invitations on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    ({ server } = await startWithAdmin(engine, PASSWORD, { env: { AUTH_RATE_LIMIT: "300" } }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signUp = (email: string) =>
    signUpVerified(server, { name: email.split("@")[0]!, email, password: PASSWORD });

  it("finding 2: a team's name cannot hold a link or our name, at creation or when changed", async () => {
    const cookie = await signUp("spam@ganga.example");
    for (const name of [
      "URGENT: your account is suspended, visit http://evil.example/login",
      "Visit www.evil.example now",
      "Support at evil.com",
      "Pinout Billing Team",
    ]) {
      const refused = await postForm(server, "/account/team", cookie, {
        intent: "create-team",
        ...company(name),
      });
      expect(refused.status, name).toBe(400);
      expect(await said(refused)).toMatch(/cannot contain (a web address|Pinout's own name)/);
    }
    expect(await server.sql(`select 1 from organization`)).toEqual([]);
    const team = await newTeam(server, cookie, company("Ganga Pvt.Ltd. & Sons"));
    const renamed = await postForm(server, team.path, cookie, {
      intent: "profile",
      ...company("Click https://evil.example"),
    });
    expect(renamed.status).toBe(400);
    // A name stored before the check (older data) never reaches a stranger's mailbox.
    await server.sql(
      `update organization set name = 'see http://evil.example' where id = '${team.id}'`,
    );
    const invite = await postForm(server, team.path, cookie, {
      intent: "invite",
      email: "victim@ganga.example",
      role: "member",
    });
    expect(invite.status).toBe(409);
    expect(await said(invite)).toContain("Change the team's name before inviting anyone");
  });

  it("finding 2: the invitation mail keeps the names out of its subject and quotes them as the inviter's", async () => {
    const cookie = await signUp("host@yamuna.example");
    const team = await newTeam(server, cookie, company("Yamuna Robotics Private Limited"));
    expect(
      (
        await postForm(server, team.path, cookie, {
          intent: "invite",
          email: "guest@yamuna.example",
          role: "member",
        })
      ).status,
    ).toBe(200);
    await server.jobsSettled();
    const [mail] = readOutbox(server.dataDir).filter((message) =>
      message.to.includes("guest@yamuna.example"),
    );
    expect(mail!.subject).toBe("A Pinout user invited you to join their team");
    expect(mail!.text).toContain(
      "host@yamuna.example (who gives their name as “host”) invited guest@yamuna.example",
    );
    expect(mail!.text).toContain(
      "They call the team “Yamuna Robotics Private Limited”: their words, not ours.",
    );
  });

  it("finding 2: an unpaid team has a few invitations waiting; an address is invited a few times a day, resends included", async () => {
    const cookie = await signUp("flood@kaveri-two.example");
    const team = await newTeam(server, cookie, company("Kaveri Two Private Limited"));
    const invite = (email: string) =>
      postForm(server, team.path, cookie, { intent: "invite", email, role: "member" });
    for (let n = 1; n <= INVITATION_LIMITS.unpaidWaiting; n += 1)
      expect((await invite(`p${n}@kaveri-two.example`)).status).toBe(200);
    const over = await invite("p99@kaveri-two.example");
    expect(over.status).toBe(409);
    expect(await said(over)).toContain(
      `A team that has not bought seats yet can have ${INVITATION_LIMITS.unpaidWaiting} invitations waiting at most.`,
    );
    // Sending one invitation again and again: the address's daily rate stops it.
    const [waiting] = await server.sql(
      `select id from invitation where email = 'p1@kaveri-two.example' and status = 'pending'`,
    );
    let id = String(waiting!.id);
    const statuses: number[] = [];
    for (let n = 0; n < INVITATION_LIMITS.perAddressPerDay + 1; n += 1) {
      const resent = await postForm(server, team.path, cookie, {
        intent: "resend",
        invitationId: id,
      });
      statuses.push(resent.status);
      if (resent.status === 429)
        expect(await said(resent)).toContain("has been invited several times today");
      const [latest] = await server.sql(
        `select id from invitation where email = 'p1@kaveri-two.example' and status = 'pending'`,
      );
      id = String(latest!.id);
    }
    // The first invitation counted as one: two resends pass, the third is refused.
    expect(statuses).toEqual([200, 200, 429, 429]);
    await server.jobsSettled();
    const mails = readOutbox(server.dataDir).filter((message) =>
      message.to.includes("p1@kaveri-two.example"),
    );
    expect(mails).toHaveLength(INVITATION_LIMITS.perAddressPerDay);
  });
});
