/**
 * Issue 57, point 2: floating team seats. A team with 2 floating seats and 3 members: the third
 * machine to check in is refused with words naming the limit while two hold leases; one signs out
 * and the third takes the seat; an overage allowance of 1.5× admits one more, which the owner's
 * page shows as overage. A lease that is not renewed frees its seat, quitting gives it back, and
 * the move back to named seats ends every lease. Then two instances on one PostgreSQL take leases
 * at once and never hold more than the seats allow.
 */
import { createHash } from "node:crypto";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import { signInDevice } from "../support/desktop";
import { expectConforms } from "../support/desktop-api";
import { httpEngine } from "../support/engines";
import { pageText } from "../support/pages";
import { type RunningTestServer, startServer } from "../support/server";
import { invitationLink, said, teamWithPaidSeats } from "../support/teams";

const PASSWORD = "floating-seats-password-1";

interface CheckIn {
  entitlement: { plan: string; team?: { id: string }; lease_until?: string };
  license: string;
  floating_seat:
    | null
    | { status: "held"; lease_until: string; overage: boolean }
    | { status: "refused"; seats: number; machines_allowed: number; message: string };
}

describe("floating seats", () => {
  let servers: RunningTestServer[] = [];
  let server: RunningTestServer;

  beforeAll(async () => {
    const engine = httpEngine();
    const env = {
      DATABASE_URL: await engine.freshDatabaseUrl(),
      AUTH_RATE_LIMIT: "300",
      API_RATE_LIMIT: "1000",
    };
    // One after the other: the first applies the migrations. The second is an instance on the
    // same database (on PostgreSQL) for the concurrency check.
    server = await startServer({ env });
    servers = [server];
    if (engine.name === "postgres") servers.push(await startServer({ env }));
  });
  afterAll(async () => {
    await Promise.all(servers.map((running) => running.stop()));
  });

  const signUp = (email: string) =>
    signUpVerified(server, { name: email.split("@")[0]!, email, password: PASSWORD });

  const checkIn = async (access: string, on: RunningTestServer = server) => {
    const response = await fetch(`${on.url}/api/desktop/heartbeat`, {
      method: "POST",
      headers: { authorization: `Bearer ${access}` },
    });
    expect(response.status).toBe(200);
    // Every check-in answer, held, refused or none, as the OpenAPI document says (point 6).
    return (await expectConforms("POST", response)) as CheckIn;
  };

  /** A team with `seats` paid monthly seats held floating with `overage` percent. */
  async function floatingTeam(owner: string, name: string, seats: number) {
    const cookie = await signUp(owner);
    const { team } = await teamWithPaidSeats(server, cookie, name, seats);
    const chosen = await postForm(server, team.path, cookie, {
      intent: "seat-mode",
      mode: "floating",
      overagePercent: "0",
    });
    expect(await said(chosen)).toContain("Seats now float");
    return { cookie, team };
  }

  /** Invites `email`, who signs up, accepts and signs a machine in; their cookie and token. */
  async function join(ownerCookie: string, path: string, email: string, machine: string) {
    const invited = await postForm(server, path, ownerCookie, {
      intent: "invite",
      email,
      role: "member",
    });
    expect(invited.status, await said(invited.clone())).toBe(200);
    await server.jobsSettled();
    const cookie = await signUp(email);
    const accepted = await postForm(server, invitationLink(server, email), cookie, {
      intent: "accept",
    });
    expect(accepted.headers.get("location")).toMatch(/joined=floating/);
    return { cookie, access: await signInDevice(server, cookie, machine) };
  }

  it("admits two machines on two seats, refuses the third with words, and admits it when one signs out; 1.5× overage admits one more", async () => {
    const { cookie: owner, team } = await floatingTeam(
      "meera@lathe.example",
      "Lathe Works Private Limited",
      2,
    );
    const anil = await join(owner, team.path, "anil@lathe.example", "Anil's bench");
    const bina = await join(owner, team.path, "bina@lathe.example", "Bina's laptop");
    const chetan = await join(owner, team.path, "chetan@lathe.example", "Chetan's desktop");

    const first = await checkIn(anil.access);
    expect(first.entitlement).toMatchObject({
      plan: "pro-monthly",
      team: { id: team.id, floating: true },
    });
    // The member's own pages say where their Pro comes from.
    expect(await pageText(server, "/account/subscription", anil.cookie)).toContain(
      "From Lathe Works Private Limited's floating seats: Pro in the desktop app on a machine while one of the team's seats is free.",
    );
    expect(first.floating_seat).toMatchObject({ status: "held", overage: false });
    // The licence ends with the lease: a machine that stops checking in loses Pro with its seat.
    const exp = JSON.parse(Buffer.from(first.license.split(".")[1]!, "base64url").toString()).exp;
    expect(exp * 1000).toBeLessThanOrEqual(Date.parse(first.entitlement.lease_until!));
    expect((await checkIn(bina.access)).floating_seat).toMatchObject({ status: "held" });

    // The third machine: refused with words naming the limit, Free meanwhile.
    const third = await checkIn(chetan.access);
    expect(third.entitlement.plan).toBe("free");
    expect(third.floating_seat).toMatchObject({
      status: "refused",
      seats: 2,
      machines_allowed: 2,
      message: expect.stringContaining(
        "All of Lathe Works Private Limited's 2 floating seats are in use",
      ),
    });
    // A renewal keeps a held seat; a GET of /me never takes one.
    expect((await checkIn(anil.access)).floating_seat).toMatchObject({ status: "held" });
    const me = await fetch(`${server.url}/api/desktop/me`, {
      headers: { authorization: `Bearer ${chetan.access}` },
    });
    expect(((await me.json()) as CheckIn).entitlement.plan).toBe("free");

    // Anil signs his machine out: its seat is free, and Chetan's next check-in takes it.
    const out = await fetch(`${server.url}/api/desktop/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${anil.access}` },
    });
    expect(out.status).toBe(200);
    const taken = await checkIn(chetan.access);
    expect(taken.entitlement.plan).toBe("pro-monthly");
    expect(taken.floating_seat).toMatchObject({ status: "held", overage: false });

    // The owner allows 1.5×: three machines on two seats, the third shown as overage.
    const allowed = await postForm(server, team.path, owner, {
      intent: "seat-mode",
      mode: "floating",
      overagePercent: "50",
    });
    expect(await said(allowed)).toContain("Seats now float");
    const anilAgain = await signInDevice(server, anil.cookie, "Anil's bench");
    const over = await checkIn(anilAgain);
    expect(over.floating_seat).toMatchObject({ status: "held", overage: true });
    const page = await pageText(server, team.path, owner);
    expect(page).toContain(
      "3 machines of 2 seats in use now (the overage allowance admits up to 3 machines)",
    );
    expect(page).toContain("Overage: 1 machine beyond the seats you pay for");
    expect(page).toContain("Most at once in the last 30 days: 3 machines");
    expect(page).toContain("chetan on Chetan's desktop");
    expect(page).toContain("Anil's bench (anil): signed out");
    // A member sees the counts, not who runs what.
    const memberPage = await pageText(server, team.path, bina.cookie);
    expect(memberPage).toContain("3 machines of 2 seats in use now");
    expect(memberPage).not.toContain("Chetan's desktop (");

    // A fourth machine beyond 1.5× is refused.
    const owners = await signInDevice(server, owner, "Meera's laptop");
    expect((await checkIn(owners)).floating_seat).toMatchObject({
      status: "refused",
      machines_allowed: 3,
    });

    // Bina quits the app: her seat is given back at once, and the owner's machine takes it.
    const quit = await fetch(`${server.url}/api/desktop/release-seat`, {
      method: "POST",
      headers: { authorization: `Bearer ${bina.access}` },
    });
    expect(quit.status).toBe(200);
    expect((await checkIn(owners)).floating_seat).toMatchObject({ status: "held" });

    // Chetan's machine stops checking in: once its lease runs out, its seat is free.
    await server.sql(
      `update seat_leases set expires_at = now() - interval '1 minute'
        where released_at is null and device_id = (select id from desktop_devices where name = 'Chetan''s desktop')`,
    );
    expect((await checkIn(bina.access)).floating_seat).toMatchObject({ status: "held" });
    expect(await pageText(server, team.path, owner)).toContain(
      "Chetan's desktop (chetan): stopped checking in",
    );

    // Back to named seats: every lease ends, and a check-in no longer involves a floating seat.
    const named = await postForm(server, team.path, owner, {
      intent: "seat-mode",
      mode: "named",
      overagePercent: "0",
    });
    expect(await said(named)).toContain("Seats are named again");
    const [open] = await server.sql(
      `select count(*)::int as n from seat_leases where organization_id = '${team.id}' and released_at is null`,
    );
    expect(Number(open!.n)).toBe(0);
    const afterNamed = await checkIn(bina.access);
    expect(afterNamed.floating_seat).toBeNull();
    expect(afterNamed.entitlement.plan).toBe("free");

    // The owner sees when each person's machines last checked in and how many fell silent
    // (issue 57, point 1), never which machines; a member sees neither.
    await server.sql(
      "update desktop_devices set last_seen_at = now() - interval '15 days' where name = 'Chetan''s desktop'",
    );
    const people = await pageText(server, team.path, owner);
    expect(people).toMatch(
      /chetan@lathe\.example Member, since \d{1,2} \w{3} \d{4}; 1 device signed in, last seen \d{1,2} \w{3} \d{4} \(1 silent too long: its slot is freed\)/,
    );
    expect(people).toMatch(
      /bina@lathe\.example Member, since [^;]+; 1 device signed in, last seen \d{1,2} \w{3} \d{4} Give a seat/,
    );
    expect(await pageText(server, team.path, bina.cookie)).not.toContain("last seen");
  });

  it("refuses a mode the form does not offer, members cannot choose one, a floating seat makes no personal licence file, and the team's licence file holds a seat until it ends", async () => {
    const { cookie: owner, team } = await floatingTeam(
      "ravi@drill.example",
      "Drill Bits Private Limited",
      1,
    );
    const odd = await postForm(server, team.path, owner, {
      intent: "seat-mode",
      mode: "floating",
      overagePercent: "30",
    });
    expect(odd.status).toBe(400);
    expect(await said(odd)).toContain("Choose one of the overage allowances.");
    const member = await join(owner, team.path, "sita@drill.example", "Sita's bench");
    const refused = await postForm(server, team.path, member.cookie, {
      intent: "seat-mode",
      mode: "named",
      overagePercent: "0",
    });
    expect(refused.status).toBe(403);
    // A floating seat is held by a checking-in machine, never by an offline licence file.
    const file = await postForm(server, "/account/licence-file", member.cookie, {
      intent: "licence-file",
      name: "Lab bench",
      fingerprint: "LAB-PC-0009-WXYZ",
      days: "30",
    });
    expect(file.headers.get("location")).toBe("/account/security?licence=floating#licence-files");
    expect(await pageText(server, "/account/security?licence=floating", member.cookie)).toContain(
      "Your Pro comes from a team's floating seat",
    );

    // From the team's page, a licence file for a machine without internet holds the seat.
    const teamFile = await postForm(server, `${team.path}/licence-file`, owner, {
      intent: "licence-file",
      name: "Lab rig",
      fingerprint: "LAB-RIG-0001-QRST",
      days: "30",
    });
    expect(teamFile.status).toBe(200);
    expect(teamFile.headers.get("content-disposition")).toBe(
      'attachment; filename="pinout-licence-lab-rig.json"',
    );
    const saved = (await teamFile.json()) as { licence: string; expires_at: string };
    const keys = createLocalJWKSet(
      (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet,
    );
    const { payload } = await jwtVerify(saved.licence, keys, { audience: "desktop-offline" });
    expect(payload).toMatchObject({
      entitlement: { plan: "pro-monthly", team: { id: team.id, floating: true } },
      machine: {
        name: "Lab rig",
        fingerprint_sha256: createHash("sha256").update("LAB-RIG-0001-QRST").digest("hex"),
      },
    });
    expect(Date.parse(saved.expires_at) - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    // The one seat is the file's now: a machine that checks in is refused, and the page says so.
    expect((await checkIn(member.access)).floating_seat).toMatchObject({ status: "refused" });
    expect(await pageText(server, team.path, owner)).toMatch(
      /Lab rig \(licence file until \d{1,2} \w{3} \d{4}, [^)]+\)/,
    );
    // Nothing takes that seat back before the file ends: no second file, no move to named seats.
    const second = await postForm(server, `${team.path}/licence-file`, owner, {
      intent: "licence-file",
      name: "Lab rig 2",
      fingerprint: "LAB-RIG-0002-QRST",
      days: "7",
    });
    expect(second.headers.get("location")).toBe(`${team.path}?licence=full#seats`);
    expect(await pageText(server, `${team.path}?licence=full`, owner)).toContain(
      "All the floating seats are in use: a licence file needs a free one.",
    );
    const toNamed = await postForm(server, team.path, owner, {
      intent: "seat-mode",
      mode: "named",
      overagePercent: "0",
    });
    expect(await said(toNamed)).toContain(
      "A licence file for a computer without internet holds one of the floating seats until",
    );
    // The file is the team's, not a device slot of the owner who made it.
    expect(await pageText(server, "/account/security", owner)).not.toContain("Lab rig");
    // Members do not make the team's files.
    const byMember = await postForm(server, `${team.path}/licence-file`, member.cookie, {
      intent: "licence-file",
      name: "Sita's rig",
      fingerprint: "LAB-RIG-0003-QRST",
      days: "7",
    });
    expect(byMember.status).toBe(403);
  });

  // PostgreSQL is required in CI (global setup fails without it), so this never silently skips there.
  it.runIf(inject("postgresUrl"))(
    "two instances on one PostgreSQL never hold more leases than the seats allow",
    async () => {
      const { cookie: owner, team } = await floatingTeam(
        "uma@press.example",
        "Press Tools Private Limited",
        2,
      );
      const machines: string[] = [];
      for (const [index, name] of ["kiran", "lata", "mohan", "nisha", "omkar", "priya"].entries())
        machines.push(
          (await join(owner, team.path, `${name}@press.example`, `${name}'s machine ${index}`))
            .access,
        );
      for (let round = 0; round < 5; round += 1) {
        const answers = await Promise.all(
          machines.map((access, index) => checkIn(access, servers[index % 2])),
        );
        const held = answers.filter((answer) => answer.floating_seat?.status === "held").length;
        const [open] = await server.sql(
          `select count(*)::int as n from seat_leases
          where organization_id = '${team.id}' and released_at is null and expires_at > now()`,
        );
        expect(held).toBe(2);
        expect(Number(open!.n)).toBe(2);
        // Everyone quits: the next round starts from no leases.
        await Promise.all(
          machines.map((access, index) =>
            fetch(`${servers[index % 2]!.url}/api/desktop/release-seat`, {
              method: "POST",
              headers: { authorization: `Bearer ${access}` },
            }),
          ),
        );
      }
    },
  );
});
