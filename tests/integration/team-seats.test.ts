/**
 * Issue 37, points 2, 4 and 5: a team buys Pro seats through the sandbox (card and UPI), invites
 * people, and those who accept while a seat is free get Pro on the site, in /api/desktop/me and
 * in the licence (which names the team); an invitation beyond the seats is refused with the
 * number free; removal frees the seat and Pro ends at the member's next check. Each charge gets a
 * B2B tax invoice in the team's name (seats, period, GSTIN, CGST/SGST or IGST by its state), seen
 * by the owner and billing managers only. A cycle above UPI AutoPay's ₹15,000 is explained before
 * anything is authorised, and the sandbox refuses a UPI mandate for it as Razorpay does.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { eventually } from "../support/eventually";
import { pageText, textOf } from "../support/pages";
import { cancelThroughFlow, sandboxApi, sandboxCharge, sandboxPay } from "../support/billing";
import { signInDevice } from "../support/desktop";
import {
  company,
  gstinFor,
  invitationLink as invitationLinkOf,
  newTeam as newTeamOf,
  said,
  startSeats as startSeatsOf,
} from "../support/teams";
import { seatsText } from "~/lib/seats";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "seats-test-password-1";

interface Me {
  entitlement: { plan: string; team?: { id: string; name: string } };
  license: string;
}

describe.each(engines())("team seats on $name", (engine) => {
  let server: RunningTestServer;
  let boss = "";

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "300" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signUp = (email: string) =>
    signUpVerified(server, { name: email.split("@")[0]!, email, password: PASSWORD });
  const invitationLink = (email: string) => invitationLinkOf(server, email);
  const newTeam = (cookie: string, details: ReturnType<typeof company>) =>
    newTeamOf(server, cookie, details);
  /** Starts the team's checkout as its page does; the Razorpay subscription id. */
  const startSeats = (cookie: string, path: string, cycle: string, seats: number) =>
    startSeatsOf(server, cookie, path, seats, cycle);
  const buySeats = async (cookie: string, path: string, seats: number, method: "card" | "upi") => {
    const started = await startSeats(cookie, path, "monthly", seats);
    expect(started.status, started.body).toBe(200);
    const paid = await sandboxPay(server, started.subscriptionId!, "success", method);
    expect(paid.status).toBe(200);
    const verified = await postForm(server, `${path}/seats`, cookie, {
      intent: "verify",
      ...paid.body,
    });
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe(`${path}?paid=1#seats`);
    await eventually(
      async () =>
        (await pageText(server, path, cookie)).includes(`${seatsText(seats)} of Pro (monthly)`),
      20_000,
      "the team's seats",
    );
    // The payment's event (with its tax invoice) may come after the resync that gave the seats.
    const teamId = path.split("/").at(-1)!;
    await eventually(
      async () =>
        (await server.sql(`select 1 from invoices where team_id = '${teamId}'`)).length > 0,
      20_000,
      "the team's invoice",
    );
    return started.subscriptionId!;
  };
  const meOf = async (access: string) => {
    const response = await fetch(`${server.url}/api/desktop/me`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Me;
  };

  it("3 seats by card: 3 of 4 invitations, Pro on /me and in the licence, removal frees a seat, a B2B invoice for the owner only", async () => {
    const owner = await signUp("meera@kaveri.example");
    const team = await newTeam(
      owner,
      company("Kaveri Robotics Private Limited", "29", "Bengaluru"),
    );

    // Before buying: the team's page says it has no seats; the seats page prices the order.
    expect(await pageText(server, team.path, owner)).toContain("The team has no Pro seats yet.");
    const order = await pageText(server, `${team.path}/seats?seats=3&cycle=monthly`, owner);
    expect(order).toContain("3 seats × ₹699 = ₹2,097 a month, GST included.");
    expect(order).toContain(
      `₹2,097 is ₹1,777.12 + ₹159.94 CGST (9%) + ₹159.94 SGST (9%), as the tax invoice to Kaveri Robotics Private Limited (GSTIN ${gstinFor("29")}), Karnataka, will show it.`,
    );
    expect(order).not.toContain("more than UPI AutoPay can debit");

    const subscriptionId = await buySeats(owner, team.path, 3, "card");
    expect(
      await server.sql(
        `select seats, user_id, status from subscriptions where provider_subscription_id = '${subscriptionId}'`,
      ),
    ).toEqual([{ seats: 3, user_id: null, status: "active" }]);
    // Its mails go to the team's owner (and billing managers), naming the seats.
    await server.jobsSettled();
    expect(
      readOutbox(server.dataDir)
        .filter((mail) => mail.to.includes("meera@kaveri.example"))
        .map((mail) => mail.subject),
    ).toContain("Payment received: ₹2,097 for Pinout Pro (monthly), 3 seats");
    // Its invoice is on the team's page, not in the owner's own Invoices (issue 54).
    const receipt = readOutbox(server.dataDir).find(
      (mail) =>
        mail.to.includes("meera@kaveri.example") && mail.subject.startsWith("Payment received"),
    );
    expect(receipt?.text.replace(/\s+/g, " ")).toContain(
      "always on the team's page, under Invoices.",
    );
    // The buyer's own plan is untouched: a team's subscription is nobody's own.
    expect(await pageText(server, "/account", owner)).toContain("Plan Free");

    // Four invitations for three seats: the fourth is refused, saying how many are free.
    const invite = (email: string) =>
      postForm(server, team.path, owner, { intent: "invite", email, role: "member" });
    for (const email of ["arun@kaveri.example", "bela@kaveri.example", "chitra@kaveri.example"])
      expect((await invite(email)).status).toBe(200);
    const fourth = await invite("dev@kaveri.example");
    expect(fourth.status).toBe(409);
    expect(await said(fourth)).toContain(
      "No seat is free: the team's 3 seats are held by 0 people and 3 waiting invitations.",
    );
    await server.jobsSettled();

    // The three accept and get Pro: on the site, /me and the licence, which names the team.
    const people: Record<string, { cookie: string; access: string }> = {};
    for (const name of ["arun", "bela", "chitra"]) {
      const email = `${name}@kaveri.example`;
      const cookie = await signUp(email);
      const accepted = await postForm(server, invitationLink(email), cookie, { intent: "accept" });
      expect(accepted.headers.get("location")).toBe(`${team.path}?joined=given`);
      const access = await signInDevice(server, cookie, `${name}'s laptop`);
      people[name] = { cookie, access };
      const me = await meOf(access);
      expect(me.entitlement.plan).toBe("pro-monthly");
      expect(me.entitlement.team).toEqual({ id: team.id, name: "Kaveri Robotics Private Limited" });
      expect(decodeJwt(me.license).entitlement).toMatchObject({
        plan: "pro-monthly",
        team: { name: "Kaveri Robotics Private Limited" },
      });
      expect(await pageText(server, "/account", cookie)).toContain("Plan Pro");
    }
    const full = await pageText(server, team.path, owner);
    expect(full).toContain("3 seats of Pro (monthly): 3 held, 0 kept for invitations, 0 free.");
    expect(full).toContain("Renews on");
    expect(full).toContain("₹2,097, GST included, invoiced to the team.");

    // Removing Bela frees her seat: her next check says Free; the seat can be invited to again.
    const [bela] = await server.sql(
      `select m.id from member m join "user" u on u.id = m.user_id where u.email = 'bela@kaveri.example'`,
    );
    expect(
      await said(
        await postForm(server, team.path, owner, { intent: "remove", memberId: String(bela!.id) }),
      ),
    ).toContain("bela@kaveri.example left the team.");
    const after = await meOf(people.bela!.access);
    expect(after.entitlement.plan).toBe("free");
    expect(after.entitlement.team).toBeUndefined();
    expect((await meOf(people.arun!.access)).entitlement.plan).toBe("pro-monthly");
    expect((await invite("dev@kaveri.example")).status).toBe(200);

    // The owner takes Arun's seat back: he stays in the team, on Free; the seat is free.
    const [arun] = await server.sql(
      `select m.id from member m join "user" u on u.id = m.user_id where u.email = 'arun@kaveri.example'`,
    );
    expect(
      await said(
        await postForm(server, team.path, owner, {
          intent: "take-seat",
          memberId: String(arun!.id),
        }),
      ),
    ).toContain("arun@kaveri.example no longer has a seat: it is free.");
    expect((await meOf(people.arun!.access)).entitlement.plan).toBe("free");
    expect(await pageText(server, team.path, owner)).toContain(
      "3 seats of Pro (monthly): 1 held, 1 kept for invitations, 1 free.",
    );

    // The B2B tax invoice: the team's name and GSTIN, 3 seats, the period, CGST + SGST.
    const [invoice] = await server.sql(
      `select id, team_id, user_id, b2b, taxable_paise, cgst_paise, sgst_paise, igst_paise, total_paise,
         document->'buyer'->>'gstin' as gstin, document->'buyer'->>'legalName' as buyer,
         document->'lines'->0->>'quantity' as quantity, document->'lines'->0->>'description' as description,
         document->'lines'->0->>'periodStart' as period_start
       from invoices where team_id = '${team.id}'`,
    );
    expect(invoice).toMatchObject({
      team_id: team.id,
      user_id: null,
      b2b: true,
      taxable_paise: 177_712,
      cgst_paise: 15_994,
      sgst_paise: 15_994,
      igst_paise: 0,
      total_paise: 209_700,
      gstin: gstinFor("29"),
      buyer: "Kaveri Robotics Private Limited",
      quantity: "3",
    });
    expect(String(invoice!.description)).toContain("Pro (monthly) subscription, 3 seats");
    expect(invoice!.period_start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const pdf = `/invoices/${String(invoice!.id)}.pdf`;
    expect((await getWithCookies(server, pdf, owner)).status).toBe(200);
    expect(await pageText(server, team.path, owner)).toMatch(/Tax invoice PL\/\d\d-\d\d\/\d{6}/);
    // A member sees neither the team's invoices nor their PDFs, nor the seats page.
    expect(await pageText(server, team.path, people.chitra!.cookie)).not.toContain("Tax invoice");
    expect((await getWithCookies(server, pdf, people.chitra!.cookie)).status).toBe(404);
    expect((await getWithCookies(server, `${team.path}/seats`, people.chitra!.cookie)).status).toBe(
      403,
    );
    // The member's own list of teams, and the operator's customer page, name the seat.
    expect(await pageText(server, "/account/team", people.chitra!.cookie)).toContain(
      "Kaveri Robotics Private Limited · Member · Pro seat",
    );
    const [chitraRow] = await server.sql(
      `select id from "user" where email = 'chitra@kaveri.example'`,
    );
    expect(await pageText(server, `/admin/customers/${String(chitraRow!.id)}`, boss)).toContain(
      "Kaveri Robotics Private Limited · Member · Pro seat",
    );
    // The operator: the team's seats and invoices on /admin/teams, the seats in the cockpit,
    // and the B2B invoice in the month's GSTR-1 export under the team's GSTIN.
    expect(await pageText(server, "/admin/teams?q=kaveri robotics", boss)).toContain(
      `Kaveri Robotics Private Limited ${gstinFor("29")} Karnataka meera@kaveri.example 3 1 1 of 3 ₹2,097`,
    );
    expect(await pageText(server, "/admin/analytics", boss)).toContain(
      "Teams with seats 1 Seats sold 3 Seats held 1 MRR from teams ₹2,097",
    );
    // The team's own page for the operator: people with their seats, the subscription, every
    // payment and document; for admins only.
    const operator = await pageText(server, `/admin/teams/${team.id}`, boss);
    expect(operator).toContain(
      `GSTIN ${gstinFor("29")}; 14 Industrial Layout, Bengaluru 560058, Karnataka.`,
    );
    expect(operator).toContain("chitra@kaveri.example member Pro seat 1");
    expect(operator).toContain("arun@kaveri.example member — 1");
    expect(operator).toContain(`${subscriptionId} Pro (monthly) 3 active`);
    expect(operator).toMatch(/pay_[A-Za-z0-9]+ ₹2,097 — captured card/);
    expect(operator).toMatch(
      /PL\/\d\d-\d\d\/\d{6} Tax invoice \d{1,2} [A-Z][a-z]{2} \d{4} ₹2,097 PDF/,
    );
    expect((await getWithCookies(server, `/admin/teams/${team.id}`, owner)).status).toBe(403);
    expect((await getWithCookies(server, "/admin/teams/no-such-team", boss)).status).toBe(404);
    const gstr1 = await (await getWithCookies(server, "/admin/invoices/gstr1.csv", boss)).text();
    expect(gstr1).toMatch(
      new RegExp(
        `\r\nb2b,${gstinFor("29")},Kaveri Robotics Private Limited,PL/[0-9-]+/\\d+,[^,]+,,2097\\.00,29-Karnataka,N,18,1777\\.12,0\\.00,159\\.94,159\\.94,`,
      ),
    );
    // Nor cancel them.
    expect(
      (await cancelThroughFlow(server, people.chitra!.cookie, { teamPath: team.path })).status,
    ).toBe(403);
    expect(
      (await getWithCookies(server, `${team.path}/cancel`, people.chitra!.cookie)).status,
    ).toBe(403);
    // An outsider gets 404 for the team's pages.
    const outsider = await signUp("zoe@elsewhere.example");
    expect((await getWithCookies(server, `${team.path}/seats`, outsider)).status).toBe(404);
    expect((await getWithCookies(server, pdf, outsider)).status).toBe(404);
  });

  it("over ₹15,000 a cycle: explained before authorising, UPI refused by the sandbox; 3 monthly seats by UPI, IGST to a Maharashtra GSTIN", async () => {
    const owner = await signUp("omkar@sahyadri.example");
    const team = await newTeam(owner, company("Sahyadri Devices LLP", "27", "Pune"));

    const yearly = await pageText(server, `${team.path}/seats?seats=3&cycle=yearly`, owner);
    expect(yearly).toContain("3 seats × ₹6,999 = ₹20,997 a year, GST included.");
    expect(yearly).toContain(
      "₹20,997 a year is more than UPI AutoPay can debit at once (₹15,000), so pay by debit or credit card. Above ₹15,000, your bank asks you to approve each charge",
    );
    // Razorpay refuses a UPI mandate above its limit; the page said so before this.
    const started = await startSeats(owner, team.path, "yearly", 3);
    expect(started.status).toBe(200);
    const refused = await sandboxPay(server, started.subscriptionId!, "success", "upi");
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(
      "The maximum transaction amount allowed is ₹15,000 when using UPI",
    );

    // Monthly instead, by UPI: the yearly checkout is given up, never payable.
    const subscriptionId = await buySeats(owner, team.path, 3, "upi");
    expect(
      await server.sql(
        `select status from subscriptions where provider_subscription_id = '${started.subscriptionId}'`,
      ),
    ).toEqual([{ status: "cancelled" }]);
    expect(subscriptionId).not.toBe(started.subscriptionId);
    const [invoice] = await server.sql(
      `select b2b, taxable_paise, cgst_paise, sgst_paise, igst_paise, place_of_supply
       from invoices where team_id = '${team.id}'`,
    );
    expect(invoice).toEqual({
      b2b: true,
      taxable_paise: 177_712,
      cgst_paise: 0,
      sgst_paise: 0,
      igst_paise: 31_988,
      place_of_supply: "27",
    });
    // A refund made in Razorpay's Dashboard (how the operator refunds a team: its page says so)
    // is recorded from its webhook, with a credit note for the team.
    const [paid] = await server.sql(
      `select p.provider_payment_id from payments p join subscriptions s on s.id = p.subscription_id
       where s.provider_subscription_id = '${subscriptionId}' and p.status = 'captured'`,
    );
    const refunded = await sandboxApi<{ id?: string }>(
      server.url,
      `/v1/payments/${String(paid!.provider_payment_id)}/refund`,
      { method: "POST", body: JSON.stringify({ amount: 20_970 }) },
    );
    expect(refunded.id).toMatch(/^rfnd_/);
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from invoices where team_id = '${team.id}' and kind = 'credit_note' and total_paise = 20970`,
          )
        ).length === 1,
      20_000,
      "the team's credit note",
    );
    expect(await pageText(server, team.path, owner)).toMatch(
      /Credit note PL\/CN\/\d\d-\d\d\/\d{4,}/,
    );

    // With seats, the page changes their number rather than buying again; the same number
    // is no change.
    expect(await pageText(server, `${team.path}/seats`, owner)).toContain(
      "Change Sahyadri Devices LLP's seats",
    );
    const same = await startSeats(owner, team.path, "monthly", 3);
    expect(same.status).toBe(400);
    expect(textOf(same.body)).toContain("The team has 3 seats already.");

    // The team cancels at the end of the period, then keeps it after all; each said on the page.
    const cancelled = (await cancelThroughFlow(server, owner, { teamPath: team.path })).page;
    expect(cancelled).toMatch(
      /Cancelled: the seats give Pro until \d{1,2} [A-Z][a-z]{2} \d{4}, and nothing more is charged\./,
    );
    expect(await pageText(server, team.path, owner)).toMatch(
      /Ends on \d{1,2} [A-Z][a-z]{2} \d{4}; seats give Pro until then\. .*Keep the subscription/,
    );
    expect(
      await server.sql(
        `select cancel_at_cycle_end from subscriptions where provider_subscription_id = '${subscriptionId}'`,
      ),
    ).toEqual([{ cancel_at_cycle_end: true }]);
    expect(
      await said(await postForm(server, team.path, owner, { intent: "keep-seats" })),
    ).toContain("The team's subscription continues: it renews as before.");
    expect(await pageText(server, team.path, owner)).toMatch(
      /Renews on \d{1,2} [A-Z][a-z]{2} \d{4}: ₹2,097, GST included, invoiced to the team\./,
    );
    await server.jobsSettled();
    expect(
      readOutbox(server.dataDir)
        .filter((mail) => mail.to.includes("omkar@sahyadri.example"))
        .map((mail) => mail.subject),
    ).toEqual(
      expect.arrayContaining([
        "Your Pinout subscription is cancelled",
        "Your Pinout subscription continues",
      ]),
    );
  });

  it("2 seats added mid-cycle: charged once for the rest of the period (submitted twice at once), invoiced B2B, given at once; seats removed at the cycle's end", async () => {
    const owner = await signUp("nila@kaveri-labs.example");
    const team = await newTeam(owner, company("Kaveri Labs Private Limited", "29", "Bengaluru"));
    const old = await buySeats(owner, team.path, 3, "card");
    const invite = (email: string) =>
      postForm(server, team.path, owner, { intent: "invite", email, role: "member" });
    for (const n of [1, 2, 3]) expect((await invite(`p${n}@kaveri-labs.example`)).status).toBe(200);
    expect((await invite("p4@kaveri-labs.example")).status).toBe(409);

    // The page prices the change: the added seats' share of this period now, then the new total.
    const quote = await pageText(server, `${team.path}/seats?seats=5`, owner);
    const days = /over the (\d+) days left of this period \(2 × ₹699 × (\d+)\/(\d+)\)/.exec(quote);
    expect(days, quote).not.toBeNull();
    // Just bought: the whole period is left, so the 2 seats cost a full period's ₹1,398.
    expect(days![2]).toBe(days![3]);
    expect(quote).toContain("Now: ₹1,398 for 2 seats more");
    expect(quote).toMatch(
      /5 seats × ₹699 = ₹3,495 a month from \d{1,2} [A-Z][a-z]{2} \d{4}, GST included\./,
    );
    expect(quote).toContain("you authorise a new one for ₹3,495 a month");

    // Submitted twice at once: one new subscription, one upfront charge.
    const [first, second] = await Promise.all([
      startSeats(owner, team.path, "monthly", 5),
      startSeats(owner, team.path, "monthly", 5),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.subscriptionId).toBe(second.subscriptionId);
    const next = first.subscriptionId!;
    const paid = await sandboxPay(server, next, "success", "card");
    expect(paid.status).toBe(200);
    const verified = await postForm(server, `${team.path}/seats`, owner, {
      intent: "verify",
      ...paid.body,
    });
    expect(verified.headers.get("location")).toBe(`${team.path}?paid=1#seats`);
    await eventually(
      async () => (await pageText(server, team.path, owner)).includes("5 seats of Pro (monthly)"),
      20_000,
      "5 seats",
    );
    // The seats are the team's at once: two more invitations, not a third.
    expect((await invite("p4@kaveri-labs.example")).status).toBe(200);
    expect((await invite("p5@kaveri-labs.example")).status).toBe(200);
    expect(await said(await invite("p6@kaveri-labs.example"))).toContain(
      "No seat is free: the team's 5 seats are held by 0 people and 5 waiting invitations.",
    );

    // One payment of ₹1,398 and its B2B invoice: 2 seats, today to the period's last day.
    await eventually(
      async () =>
        (await server.sql(`select 1 from invoices where team_id = '${team.id}'`)).length === 2,
      20_000,
      "the top-up's invoice",
    );
    await server.jobsSettled();
    const [payment, ...more] = await server.sql(
      `select p.amount_paise from payments p join subscriptions s on s.id = p.subscription_id
       where s.provider_subscription_id = '${next}' and p.status = 'captured'`,
    );
    expect(payment).toEqual({ amount_paise: 139_800 });
    expect(more).toEqual([]);
    const [topup] = await server.sql(
      `select i.b2b, i.taxable_paise, i.cgst_paise, i.sgst_paise, i.igst_paise, i.total_paise,
         i.document->'buyer'->>'gstin' as gstin,
         i.document->'lines'->0->>'quantity' as quantity,
         i.document->'lines'->0->>'description' as description,
         i.document->'lines'->0->>'periodStart' as period_start,
         i.document->'lines'->0->>'periodEnd' as period_end,
         to_char(s.current_end at time zone 'Asia/Kolkata' - interval '1 day', 'YYYY-MM-DD') as last_day,
         to_char(now() at time zone 'Asia/Kolkata', 'YYYY-MM-DD') as today
       from invoices i join subscriptions s on s.provider_subscription_id = '${old}'
       where i.team_id = '${team.id}' and i.total_paise = 139800`,
    );
    expect(topup).toMatchObject({
      b2b: true,
      taxable_paise: 118_474,
      cgst_paise: 10_663,
      sgst_paise: 10_663,
      igst_paise: 0,
      total_paise: 139_800,
      gstin: gstinFor("29"),
      quantity: "2",
    });
    expect(String(topup!.description)).toContain("2 seats added for the rest of the period");
    expect(topup!.period_start).toBe(topup!.today);
    expect(topup!.period_end).toBe(topup!.last_day);
    // The current subscription ends with its period; the new one carries 5 seats from then.
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from subscriptions where provider_subscription_id = '${old}' and cancel_at_cycle_end`,
          )
        ).length === 1,
      20_000,
      "the old subscription ending with its period",
    );

    await server.jobsSettled();
    expect(
      readOutbox(server.dataDir)
        .filter((mail) => mail.to.includes("nila@kaveri-labs.example"))
        .map((mail) => mail.subject),
    ).toContainEqual(
      expect.stringMatching(/^Plan change scheduled: Pro \(monthly\), 5 seats from /),
    );
    // The first charge it names is the 5 seats' (issue 54: it said one seat's ₹699).
    const scheduled = readOutbox(server.dataDir).find(
      (mail) =>
        mail.to.includes("nila@kaveri-labs.example") &&
        mail.subject.startsWith("Plan change scheduled"),
    );
    expect(scheduled?.text.replace(/\s+/g, " ")).toContain(
      "The first charge of ₹3,495 is made then",
    );
    // The upfront amount's receipt was mailed, naming the seats it paid for (issue 54).
    expect(
      readOutbox(server.dataDir)
        .filter((mail) => mail.to.includes("nila@kaveri-labs.example"))
        .map((mail) => mail.subject),
    ).toContain(
      "Payment received: ₹1,398 for Pinout Pro (monthly), 2 seats added for the rest of the period",
    );
    // The team's page says a change is scheduled, what renews, and still offers cancelling.
    const scheduledPage = await pageText(server, team.path, owner);
    expect(scheduledPage).toMatch(
      /Seats were added this period and are paid until \d{1,2} [A-Z][a-z]{2} \d{4}; from then the team's subscription renews for 5 seats\./,
    );
    expect(scheduledPage).toContain("₹3,495, GST included, invoiced to the team.");
    expect(scheduledPage).toContain("Cancel at the end of the period");
    expect(scheduledPage).not.toContain("Change the number of seats");

    // The period ends: the new subscription's first charge is for 5 seats.
    const api = `${server.url}/_sandbox/razorpay`;
    expect((await sandboxCharge(api, old)).status).toBe(200);
    expect((await sandboxCharge(api, next)).status).toBe(200);
    await eventually(
      async () =>
        (await server.sql(`select 1 from invoices where team_id = '${team.id}'`)).length === 3,
      20_000,
      "the new period's invoice",
    );
    expect(
      await server.sql(
        `select total_paise, document->'lines'->0->>'quantity' as quantity from invoices
         where team_id = '${team.id}' order by issued_at desc, number desc limit 1`,
      ),
    ).toEqual([{ total_paise: 349_500, quantity: "5" }]);

    // Fewer seats than are held or promised: refused, saying what to do.
    const tooFew = await startSeats(owner, team.path, "monthly", 4);
    expect(tooFew.status).toBe(409);
    expect(textOf(tooFew.body)).toContain(
      "take seats back or withdraw invitations until no more than 4 are, then reduce the seats.",
    );
    const [waiting] = await server.sql(
      `select id from invitation where email = 'p5@kaveri-labs.example' and status = 'pending'`,
    );
    await postForm(server, team.path, owner, {
      intent: "withdraw",
      invitationId: String(waiting!.id),
    });
    const reduce = await pageText(server, `${team.path}/seats?seats=4`, owner);
    expect(reduce).toContain("Nothing is charged now. The team keeps 5 seats until");
    const fewer = await startSeats(owner, team.path, "monthly", 4);
    expect(fewer.status).toBe(200);
    const authorised = await sandboxPay(server, fewer.subscriptionId!, "success", "upi");
    expect(authorised.status).toBe(200);
    await postForm(server, `${team.path}/seats`, owner, { intent: "verify", ...authorised.body });
    await eventually(
      async () =>
        /From \d{1,2} [A-Z][a-z]{2} \d{4}: 4 seats, ₹2,796 a month\. Until then the team keeps 5 seats\./.test(
          await pageText(server, team.path, owner),
        ),
      20_000,
      "the scheduled reduction",
    );
    // Nothing was charged for it, and no seat beyond the 4 can be promised meanwhile.
    expect(
      await server.sql(`select count(*)::int as n from invoices where team_id = '${team.id}'`),
    ).toEqual([{ n: 3 }]);
    expect((await invite("p6@kaveri-labs.example")).status).toBe(409);
    // At the cycle's end: 4 seats.
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from subscriptions where provider_subscription_id = '${next}' and cancel_at_cycle_end`,
          )
        ).length === 1,
      20_000,
      "the 5-seat subscription ending with its period",
    );
    expect((await sandboxCharge(api, next)).status).toBe(200);
    expect((await sandboxCharge(api, fewer.subscriptionId!)).status).toBe(200);
    await eventually(
      async () => (await pageText(server, team.path, owner)).includes("4 seats of Pro (monthly)"),
      20_000,
      "4 seats",
    );
  });

  it("a team's seats are cancelled at Razorpay with the account of its last member", async () => {
    const email = "solo@narmada.example";
    const owner = await signUp(email);
    const team = await newTeam(owner, company("Narmada Sensors", "29", "Bengaluru"));
    const subscriptionId = await buySeats(owner, team.path, 2, "card");
    const gone = await postForm(server, "/account/security", owner, {
      intent: "delete-account",
      password: PASSWORD,
    });
    expect(gone.status, server.output().slice(-3000)).toBeLessThan(400);
    // Nobody is left to see or stop its charges: cancelled at Razorpay, and the team is gone.
    expect(
      await server.sql(
        `select status, team_id from subscriptions where provider_subscription_id = '${subscriptionId}'`,
      ),
    ).toEqual([{ status: "cancelled", team_id: null }]);
    expect(await server.sql(`select 1 from organization where id = '${team.id}'`)).toEqual([]);
    // Its invoices stay (tax law), still B2B to the team's GSTIN.
    expect(
      await server.sql(
        `select document->'buyer'->>'gstin' as gstin from invoices where provider_payment_id is not null and document->'buyer'->>'legalName' = 'Narmada Sensors'`,
      ),
    ).toEqual([{ gstin: gstinFor("29") }]);
  });

  it("a halted team subscription is said on the team's page, and buying again retires it", async () => {
    const owner = await signUp("ravi@kaveri-halt.example");
    const team = await newTeam(owner, company("Kaveri Halt Testing", "29", "Bengaluru"));
    const first = await buySeats(owner, team.path, 2, "card");
    const api = `${server.url}/_sandbox/razorpay`;
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await sandboxCharge(api, first, true)).status).toBe(200);
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from subscriptions where provider_subscription_id = '${first}' and status = 'halted'`,
          )
        ).length === 1,
      20_000,
      "the halt",
    );
    const page = await getWithCookies(server, team.path, owner);
    const html = await page.text();
    expect(textOf(html)).toContain(
      "The team's subscription stopped after its renewal could not be charged, so its seats give no Pro now.",
    );
    expect(html).toMatch(/href="[^"]*\/hosted\/sub_[A-Za-z0-9]+"[^>]*>Pay the missed charge</);
    // Bought again: the halted one is cancelled, so a card entered on its page cannot charge too.
    await buySeats(owner, team.path, 2, "card");
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from subscriptions where provider_subscription_id = '${first}' and status = 'cancelled'`,
          )
        ).length === 1,
      20_000,
      "the halted subscription retired",
    );
  });

  it("two accepts at once for the last seat: one gets it, the other joins without one", async () => {
    const owner = await signUp("lata@godavari.example");
    const team = await newTeam(owner, company("Godavari Systems", "29", "Bengaluru"));
    // One seat, and an invitation made before the seats were bought (a team may invite first).
    for (const email of ["p1@godavari.example", "p2@godavari.example"])
      expect(
        (await postForm(server, team.path, owner, { intent: "invite", email, role: "member" }))
          .status,
      ).toBe(200);
    await buySeats(owner, team.path, 1, "card");
    await server.jobsSettled();
    const [p1, p2] = await Promise.all([
      signUp("p1@godavari.example"),
      signUp("p2@godavari.example"),
    ]);
    const answers = await Promise.all(
      [
        [p1, "p1@godavari.example"],
        [p2, "p2@godavari.example"],
      ].map(([cookie, email]) =>
        postForm(server, invitationLink(email!), cookie!, { intent: "accept" }).then((response) =>
          response.headers.get("location"),
        ),
      ),
    );
    expect(answers.sort()).toEqual([`${team.path}?joined=full`, `${team.path}?joined=given`]);
    expect(
      await server.sql(
        `select count(*)::int as n from team_seats where organization_id = '${team.id}'`,
      ),
    ).toEqual([{ n: 1 }]);
  });
});
