/**
 * Issue 53, finding 1, and the team findings 4, 5 and 8: at any moment, the people with Pro
 * through a team are no more than the seats it pays for at that moment; when the count falls the
 * most recently given seats are taken back and their holders told. Both paths the review found:
 * (a) a change to more seats, then "cancel at the end of the period" and "keep it"; (b) seats
 * given while a reduction waits to be paid. Checked after every step and after the cycle ends,
 * on the seat rows, on /api/desktop/me and in the mails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { eventually } from "../support/eventually";
import { pageText } from "../support/pages";
import { cancelThroughFlow, sandboxCharge } from "../support/billing";
import { signInDevice } from "../support/desktop";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";
import {
  company,
  invitationLink,
  newTeam,
  paySeats,
  said,
  startSeats,
  teamWithPaidSeats,
} from "../support/teams";

const PASSWORD = "seat-rule-password-1";
const TAKEN_BACK = "Your Pinout Pro seat from a team has ended";

describe.each(engines())("the seat rule on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    ({ server } = await startWithAdmin(engine, PASSWORD, { env: { AUTH_RATE_LIMIT: "300" } }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signUp = (email: string) =>
    signUpVerified(server, { name: email.split("@")[0]!, email, password: PASSWORD });

  /** A team with `seats` paid monthly seats; the owner's cookie and the subscription id. */
  async function teamWithSeats(owner: string, name: string, seats: number) {
    const cookie = await signUp(owner);
    return { cookie, ...(await teamWithPaidSeats(server, cookie, name, seats)) };
  }

  /** Invites `email` into the team, and they sign up, accept and sign in a device. */
  async function join(ownerCookie: string, path: string, email: string) {
    const invited = await postForm(server, path, ownerCookie, {
      intent: "invite",
      email,
      role: "member",
    });
    if (invited.status !== 200) return { email, refused: await said(invited) };
    await server.jobsSettled();
    const cookie = await signUp(email);
    const accepted = await postForm(server, invitationLink(server, email), cookie, {
      intent: "accept",
    });
    expect(accepted.status).toBe(302);
    const access = await signInDevice(server, cookie, `${email}'s laptop`);
    return { email, cookie, access, joined: accepted.headers.get("location") };
  }

  const planOf = async (access: string) => {
    const response = await fetch(`${server.url}/api/desktop/me`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { entitlement: { plan: string; team?: unknown } })
      .entitlement;
  };

  /**
   * The rule, after the work a step queued has run: seats held ≤ `paid`, and no more than `paid`
   * of `people` have Pro from the team on /api/desktop/me.
   */
  async function holdsRule(teamId: string, paid: number, people: { access?: string }[]) {
    await server.jobsSettled();
    const [held] = await server.sql(
      `select count(*)::int as n from team_seats s join member m
         on m.organization_id = s.organization_id and m.user_id = s.user_id
       where s.organization_id = '${teamId}'`,
    );
    expect(Number(held!.n)).toBeLessThanOrEqual(paid);
    let withPro = 0;
    for (const person of people)
      if (person.access && (await planOf(person.access)).team) withPro += 1;
    expect(withPro).toBeLessThanOrEqual(paid);
    return { held: Number(held!.n), withPro };
  }

  const takenBackMails = (emails: readonly string[]) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.subject === TAKEN_BACK && emails.some((email) => mail.to.includes(email)),
    );

  it("finding 1a: 1 seat changed to 5, 5 given, cancelled and kept: 5 until the cycle ends, then 1, and the 4 newest are told", async () => {
    const {
      cookie,
      team,
      subscriptionId: old,
    } = await teamWithSeats("asha@tunga.example", "Tunga Instruments Private Limited", 1);
    // The change to 5 seats: the upfront amount for 4 more is paid now.
    const more = await startSeats(server, cookie, team.path, 5);
    expect(more.status, more.body).toBe(200);
    await paySeats(server, cookie, team.path, more.subscriptionId!);
    await eventually(
      async () => (await pageText(server, team.path, cookie)).includes("5 seats of Pro"),
      20_000,
      "5 seats",
    );
    await holdsRule(team.id, 5, []);

    // Five people take the five seats, one after another, the rule holding after each.
    const people = [];
    for (const name of ["b1", "b2", "b3", "b4", "b5"]) {
      people.push(await join(cookie, team.path, `${name}@tunga.example`));
      await holdsRule(team.id, 5, people);
    }
    expect(people.map((person) => person.joined)).toEqual(
      people.map(() => `${team.path}?joined=given`),
    );
    expect((await holdsRule(team.id, 5, people)).withPro).toBe(5);

    // Cancel at the end of the period: the change is dropped, but its seats were paid to the
    // cycle's end, so all five keep Pro until then.
    expect((await cancelThroughFlow(server, cookie, { teamPath: team.path })).status).toBe(302);
    expect((await holdsRule(team.id, 5, people)).withPro).toBe(5);
    // Kept after all: the team renews on its 1 paid seat.
    expect(
      await said(await postForm(server, team.path, cookie, { intent: "keep-seats" })),
    ).toContain("The team's subscription continues");
    expect((await holdsRule(team.id, 5, people)).withPro).toBe(5);
    expect(takenBackMails(people.map((person) => person.email))).toEqual([]);

    // The cycle ends: 1 seat is charged, 1 person keeps Pro (the first given), 4 are told.
    expect((await sandboxCharge(`${server.url}/_sandbox/razorpay`, old)).status).toBe(200);
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from subscriptions where provider_subscription_id = '${old}' and paid_count = 2`,
          )
        ).length === 1,
      20_000,
      "the renewal",
    );
    const after = await holdsRule(team.id, 1, people);
    expect(after).toEqual({ held: 1, withPro: 1 });
    expect((await planOf(people[0]!.access!)).team).toBeDefined();
    for (const person of people.slice(1)) expect((await planOf(person.access!)).plan).toBe("free");
    const told = takenBackMails(people.map((person) => person.email));
    expect(told.map((mail) => mail.to).sort()).toEqual(
      people
        .slice(1)
        .map((person) => expect.stringContaining(person.email))
        .sort(),
    );
    expect(told[0]!.text).toContain("now pays for 1 seat");
  });

  it("finding 1b: while a reduction waits to be paid no seat beyond it is given; at the cycle's end the seats are those paid", async () => {
    const {
      cookie,
      team,
      subscriptionId: old,
    } = await teamWithSeats("ravi@bhima.example", "Bhima Controls Private Limited", 3);
    const first = await join(cookie, team.path, "c1@bhima.example");
    await holdsRule(team.id, 3, [first]);
    // A change down to 1 seat is started (one person holds a seat, so it is allowed) …
    const fewer = await startSeats(server, cookie, team.path, 1);
    expect(fewer.status, fewer.body).toBe(200);
    // … and before it is paid, two more seats cannot be given: they would be lost at its start.
    const second = await join(cookie, team.path, "c2@bhima.example");
    expect(second.refused).toContain("No seat is free: the team's 1 seat is held by 1 person");
    await holdsRule(team.id, 3, [first]);
    await paySeats(server, cookie, team.path, fewer.subscriptionId!, "upi");
    await eventually(
      async () =>
        /Until then the team keeps 3 seats\./.test(await pageText(server, team.path, cookie)),
      20_000,
      "the scheduled reduction",
    );
    await holdsRule(team.id, 3, [first]);

    // The cycle ends: the 3-seat subscription ends, the 1-seat one is charged.
    const api = `${server.url}/_sandbox/razorpay`;
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from subscriptions where provider_subscription_id = '${old}' and cancel_at_cycle_end`,
          )
        ).length === 1,
      20_000,
      "the 3-seat subscription set to end",
    );
    expect((await sandboxCharge(api, old)).status).toBe(200);
    expect((await sandboxCharge(api, fewer.subscriptionId!)).status).toBe(200);
    await eventually(
      async () => (await pageText(server, team.path, cookie)).includes("1 seat of Pro"),
      20_000,
      "1 seat",
    );
    expect(await holdsRule(team.id, 1, [first])).toEqual({ held: 1, withPro: 1 });
  });

  it("finding 1: seats given beyond those paid (however they came to be) give no Pro, and are taken back from the newest", async () => {
    const { cookie, team } = await teamWithSeats(
      "mira@kosi.example",
      "Kosi Labs Private Limited",
      2,
    );
    const people = [];
    for (const name of ["d1", "d2"])
      people.push(await join(cookie, team.path, `${name}@kosi.example`));
    // A third seat row written behind the site's back (a stale row, an operator, a bug).
    const third = await join(cookie, team.path, "d3@kosi.example");
    expect(third.refused).toContain("No seat is free");
    const cookie3 = await signUp("d3@kosi.example");
    const [d3] = await server.sql(`select id from "user" where email = 'd3@kosi.example'`);
    await server.sql(
      `insert into member (id, organization_id, user_id, role, created_at)
       values ('m-d3', '${team.id}', '${String(d3!.id)}', 'member', now())`,
    );
    await server.sql(
      `insert into team_seats (organization_id, user_id) values ('${team.id}', '${String(d3!.id)}')`,
    );
    const access3 = await signInDevice(server, cookie3, "d3's laptop");
    // The entitlement never gives it: the two oldest seats are the paid ones.
    expect((await planOf(access3)).plan).toBe("free");
    expect(await pageText(server, "/account", cookie3)).toContain("Plan Free");
    expect(await pageText(server, "/account", people[0]!.cookie!)).toContain("Plan Pro");
    // Issue 54, in part: the seat says whose Pro it is, and no Pro or trial is offered to it.
    const page = await pageText(server, "/account/subscription", people[0]!.cookie!);
    expect(page).toContain(
      "From a seat of Kosi Labs Private Limited's subscription: the team's owner or billing manager manages it.",
    );
    expect(page).not.toContain("Upgrade to Pro");
    expect(page).not.toContain("Or try Pro free");
    const trial = await postForm(server, "/account/subscription", people[0]!.cookie!, {
      intent: "start-trial",
    });
    expect(trial.status).toBe(409);
    expect(await said(trial)).toContain(
      "You have Pro already (from a team's seat, or given by us)",
    );
    for (const person of people) expect((await planOf(person.access!)).team).toBeDefined();
  });

  it("finding 4: a billing manager cannot invite a billing manager (the owner can)", async () => {
    const { cookie, team } = await teamWithSeats(
      "tara@sone.example",
      "Sone Devices Private Limited",
      2,
    );
    const manager = await signUp("bm@sone.example");
    expect(
      (
        await postForm(server, team.path, cookie, {
          intent: "invite",
          email: "bm@sone.example",
          role: "billing",
        })
      ).status,
    ).toBe(200);
    await server.jobsSettled();
    await postForm(server, invitationLink(server, "bm@sone.example"), manager, {
      intent: "accept",
    });
    const refused = await postForm(server, team.path, manager, {
      intent: "invite",
      email: "bm2@sone.example",
      role: "billing",
    });
    expect(refused.status).toBe(403);
    expect(await said(refused)).toContain("Only the owner gives that role.");
    expect(await server.sql(`select 1 from invitation where email = 'bm2@sone.example'`)).toEqual(
      [],
    );
    // As a member, they may invite.
    expect(
      (
        await postForm(server, team.path, manager, {
          intent: "invite",
          email: "m@sone.example",
          role: "member",
        })
      ).status,
    ).toBe(200);
  });

  it("finding 5: two owners demoting each other, or both leaving, at the same moment leave the team an owner", async () => {
    const first = await signUp("o1@ken.example");
    const team = await newTeam(server, first, company("Ken Systems Private Limited"));
    const second = await signUp("o2@ken.example");
    await postForm(server, team.path, first, {
      intent: "invite",
      email: "o2@ken.example",
      role: "member",
    });
    await server.jobsSettled();
    await postForm(server, invitationLink(server, "o2@ken.example"), second, { intent: "accept" });
    const ids = async () =>
      Object.fromEntries(
        (
          await server.sql(
            `select u.email, m.id from member m join "user" u on u.id = m.user_id where m.organization_id = '${team.id}'`,
          )
        ).map((row) => [String(row.email), String(row.id)]),
      );
    const members = await ids();
    await postForm(server, team.path, first, {
      intent: "role",
      memberId: members["o2@ken.example"]!,
      role: "owner",
    });
    const owners = async () =>
      Number(
        (
          await server.sql(
            `select count(*)::int as n from member where organization_id = '${team.id}' and role = 'owner'`,
          )
        )[0]!.n,
      );
    expect(await owners()).toBe(2);
    await Promise.all([
      postForm(server, team.path, first, {
        intent: "role",
        memberId: members["o2@ken.example"]!,
        role: "member",
      }),
      postForm(server, team.path, second, {
        intent: "role",
        memberId: members["o1@ken.example"]!,
        role: "member",
      }),
    ]);
    expect(await owners()).toBe(1);
    // Both owners again, both leaving at once: one of them stays, as owner.
    const [owner] = await server.sql(
      `select u.email from member m join "user" u on u.id = m.user_id where m.organization_id = '${team.id}' and m.role = 'owner'`,
    );
    const [ownerCookie, otherEmail] =
      owner!.email === "o1@ken.example" ? [first, "o2@ken.example"] : [second, "o1@ken.example"];
    await postForm(server, team.path, ownerCookie, {
      intent: "role",
      memberId: members[otherEmail]!,
      role: "owner",
    });
    expect(await owners()).toBe(2);
    await Promise.all([
      postForm(server, team.path, first, { intent: "leave" }),
      postForm(server, team.path, second, { intent: "leave" }),
    ]);
    expect(await owners()).toBe(1);
  });

  it("finding 8: a failed write while accepting uses nothing up: no member without the seat the invitation held; a stale seat row gives no seat past the capacity check", async () => {
    const { cookie, team } = await teamWithSeats(
      "neel@tapi.example",
      "Tapi Works Private Limited",
      1,
    );
    await postForm(server, team.path, cookie, {
      intent: "invite",
      email: "e1@tapi.example",
      role: "member",
    });
    await server.jobsSettled();
    const person = await signUp("e1@tapi.example");
    const link = invitationLink(server, "e1@tapi.example");
    // The disk refuses the seat's write (as when it is full).
    await server.sql(
      `create function refuse_seat() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`,
    );
    await server.sql(
      `create trigger refuse_seat before insert on team_seats for each row execute function refuse_seat()`,
    );
    const failed = await postForm(server, link, person, { intent: "accept" });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await server.sql(`drop trigger refuse_seat on team_seats`);
    await server.sql(`drop function refuse_seat()`);
    expect(
      await server.sql(
        `select 1 from member m join "user" u on u.id = m.user_id where u.email = 'e1@tapi.example'`,
      ),
    ).toEqual([]);
    expect(
      await server.sql(`select status from invitation where email = 'e1@tapi.example'`),
    ).toEqual([{ status: "pending" }]);
    // Tried again: member, with the seat.
    const accepted = await postForm(server, link, person, { intent: "accept" });
    expect(accepted.headers.get("location")).toBe(`${team.path}?joined=given`);

    // Also close: a seat row left by a removal that stopped half-way does not give a seat to
    // the person when they join again while no seat is free.
    const [e1] = await server.sql(
      `select m.id, m.user_id from member m join "user" u on u.id = m.user_id where u.email = 'e1@tapi.example'`,
    );
    await postForm(server, team.path, cookie, { intent: "remove", memberId: String(e1!.id) });
    await server.sql(
      `insert into team_seats (organization_id, user_id, assigned_at) values ('${team.id}', '${String(e1!.user_id)}', now() - interval '1 day')`,
    );
    await postForm(server, team.path, cookie, {
      intent: "invite",
      email: "e1@tapi.example",
      role: "member",
    });
    await server.jobsSettled();
    // Meanwhile the one seat is taken by a path that does not count invitations.
    const [owner] = await server.sql(`select id from "user" where email = 'neel@tapi.example'`);
    await server.sql(
      `insert into team_seats (organization_id, user_id) values ('${team.id}', '${String(owner!.id)}')`,
    );
    const again = await postForm(server, invitationLink(server, "e1@tapi.example"), person, {
      intent: "accept",
    });
    expect(again.headers.get("location")).toBe(`${team.path}?joined=full`);
  });

  it("also close: removing another team's member says that person is not in the team", async () => {
    const mine = await signUp("x1@narmada-two.example");
    const team = await newTeam(server, mine, company("Narmada Two Private Limited"));
    const theirs = await signUp("x2@narmada-two.example");
    await newTeam(server, theirs, company("Other Team Private Limited"));
    const [other] = await server.sql(
      `select m.id from member m join "user" u on u.id = m.user_id where u.email = 'x2@narmada-two.example'`,
    );
    const refused = await postForm(server, team.path, mine, {
      intent: "remove",
      memberId: String(other!.id),
    });
    expect(refused.status).toBe(404);
    expect(await said(refused)).toContain("That person is not in the team.");
  });
});
