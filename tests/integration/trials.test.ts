/**
 * Issue 36, points 1 to 3: a free Pro trial without a card. Started from the account page, it
 * gives Pro on the site, in /api/desktop/me and in the licence, which never outlasts it; a second
 * trial is refused for the same account and for the same Gmail mailbox written with dots and a
 * +tag; its mails go out once each (3 days and 1 day before, at 9:00 India time, and at the end);
 * when it ends the person is on Free with nothing charged.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "~/lib/dates";
import { addIstDays, istDay, istDayStart } from "~/lib/india-time";
import {
  getWithCookies,
  postForm,
  postJson,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import { analyticsPlanName } from "~/lib/plans";
import {
  buyThroughSandbox,
  DETAILS,
  sandboxApi,
  sandboxCharge,
  sandboxPay,
  startCheckout,
  cancelThroughFlow,
} from "../support/billing";
import { eventually } from "../support/eventually";
import { pageText, textOf } from "../support/pages";
import { signInDevice } from "../support/desktop";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "trial-test-password-1";
/** A timestamp column as milliseconds since the epoch (exact, whatever the driver makes of it). */
const MS = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
const DAY_MS = 86_400_000;
/** Shorter than a licence's 7 days offline, so the licence must end with the trial. */
const TRIAL_DAYS = 5;

describe.each(engines())("the free Pro trial on $name", (engine) => {
  let server: RunningTestServer;
  let boss = "";

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "100", TRIAL_DAYS: String(TRIAL_DAYS) },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const startTrial = (cookie: string) =>
    postForm(server, "/account/subscription", cookie, { intent: "start-trial" });
  const me = async (access: string) =>
    (await (
      await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${access}` },
      })
    ).json()) as {
      entitlement: { plan: string; expires_at: string | null; renews: boolean };
      license: string;
      trial: { ends_at: string; days_left: number } | null;
    };
  const mailsTo = (email: string) =>
    readOutbox(server.dataDir)
      .filter((mail) => mail.to.includes(email) && /trial/i.test(mail.subject))
      .map((mail) => mail.subject);

  it("gives Pro on the site, in /me and in a licence that ends with it; one trial, however often asked", async () => {
    const email = "asha.rao+work@gmail.com";
    const cookie = await signUpVerified(server, { name: "Asha", email, password: PASSWORD });
    const before = await (await getWithCookies(server, "/account/subscription", cookie)).text();
    expect(textOf(before)).toContain(
      `Or try Pro free for ${TRIAL_DAYS} days: no card, nothing charged, and Free again afterwards unless you choose a plan.`,
    );

    // Two tabs at once: one trial.
    const answers = await Promise.all([startTrial(cookie), startTrial(cookie)]);
    const texts = await Promise.all(answers.map(async (answer) => textOf(await answer.text())));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(
      texts.some((text) => /Your Pro trial is on until \d{1,2} [A-Z][a-z]{2} \d{4}\./.test(text)),
    ).toBe(true);
    expect(texts.some((text) => text.includes("Your Pro trial is already on."))).toBe(true);
    const [trial] = await server.sql(
      `select ${MS("t.ends_at")} as ends_ms, ${MS("t.started_at")} as started_ms
         from trials t join "user" u on u.id = t.user_id where u.email = '${email}'`,
    );
    const endsAt = new Date(Number(trial!.ends_ms));
    expect(endsAt.getTime() - Number(trial!.started_ms)).toBe(TRIAL_DAYS * DAY_MS);

    const page = await pageText(server, "/account/subscription", cookie);
    expect(page).toMatch(
      new RegExp(`Pro trial: ${TRIAL_DAYS} days left, ends \\d{1,2} [A-Z][a-z]{2} \\d{4}`),
    );
    expect(page).toContain("Plan Pro (free trial)");

    const access = await signInDevice(server, cookie, "Asha's Mac");
    const body = await me(access);
    expect(body.entitlement).toMatchObject({
      plan: "pro-monthly",
      expires_at: endsAt.toISOString(),
      renews: false,
    });
    expect(body.trial).toEqual({ ends_at: endsAt.toISOString(), days_left: TRIAL_DAYS });
    const licence = decodeJwt(body.license);
    expect(licence.exp).toBe(Math.floor(endsAt.getTime() / 1000));
    expect(licence.entitlement).toEqual(body.entitlement);

    // The same Gmail mailbox, written with dots and another +tag: no second trial.
    const again = await signUpVerified(server, {
      name: "Asha again",
      email: "a.s.h.a.r.a.o+second@gmail.com",
      password: PASSWORD,
    });
    const refused = await startTrial(again);
    expect(refused.status).toBe(409);
    expect(textOf(await refused.text())).toContain(
      "This email address has already had a free trial, on another account.",
    );
    expect(await pageText(server, "/account/subscription", again)).toContain(
      "This email address has already had a free trial, on another account.",
    );
    expect(await pageText(server, "/account/subscription", again)).not.toMatch(
      /Start the \d+-day free trial/,
    );
  });

  it("finding 11: a +tag on an outlook.in mailbox gets no second trial", async () => {
    const first = await signUpVerified(server, {
      name: "Ravi",
      email: "ravi.k@outlook.in",
      password: PASSWORD,
    });
    expect((await startTrial(first)).status).toBe(200);
    const variant = await signUpVerified(server, {
      name: "Ravi again",
      email: "ravi.k+trial2@outlook.in",
      password: PASSWORD,
    });
    const refused = await startTrial(variant);
    expect(refused.status).toBe(409);
    expect(textOf(await refused.text())).toContain(
      "This email address has already had a free trial, on another account.",
    );
  });

  it("mails 3 days and 1 day before at 9:00 India time, and at the end, each once; then Free, nothing charged", async () => {
    const email = "ravi@example.com";
    const cookie = await signUpVerified(server, { name: "Ravi", email, password: PASSWORD });
    expect((await startTrial(cookie)).status).toBe(200);
    const [trial] = await server.sql(
      `select t.id, ${MS("t.ends_at")} as ends_ms from trials t join "user" u on u.id = t.user_id where u.email = '${email}'`,
    );
    const endsAt = new Date(Number(trial!.ends_ms));
    const jobs = async () =>
      (
        await server.sql(
          `select payload->>'template' as template, ${MS("run_at")} as run_ms, completed_at from jobs
            where kind = 'mail.trial' and payload->>'trialId' = '${String(trial!.id)}' order by run_at`,
        )
      ).map((row) => ({
        template: String(row.template),
        runAt: new Date(Number(row.run_ms)).toISOString(),
        done: row.completed_at !== null,
      }));
    const nineIst = (daysBefore: number) =>
      new Date(
        istDayStart(addIstDays(istDay(endsAt), -daysBefore))!.getTime() + 9 * 3_600_000,
      ).toISOString();
    expect(await jobs()).toEqual([
      { template: "ends-in-3-days", runAt: nineIst(3), done: false },
      { template: "ends-in-1-day", runAt: nineIst(1), done: false },
      { template: "ended", runAt: endsAt.toISOString(), done: false },
    ]);

    // The days come: the reminders are due (the worker would find them so on the day).
    await server.sql(
      `update jobs set run_at = now() where kind = 'mail.trial' and payload->>'template' <> 'ended' and payload->>'trialId' = '${String(trial!.id)}'`,
    );
    await server.jobsSettled();
    const endDay = formatDate(endsAt.toISOString());
    expect(mailsTo(email)).toEqual([
      `Your Pinout Pro trial ends on ${endDay}`,
      `Your Pinout Pro trial ends on ${endDay}`,
    ]);
    expect(
      readOutbox(server.dataDir).find(
        (mail) => mail.to.includes(email) && mail.subject.includes("trial ends"),
      )?.text,
    ).toMatch(/Nothing will be charged: we never asked for a card/);
    // Asking again queues nothing more.
    expect((await startTrial(cookie)).status).toBe(409);
    expect((await jobs()).filter((job) => !job.done).map((job) => job.template)).toEqual(["ended"]);

    // The end comes: the trial and its Pro are over, and the last mail says so.
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
    const id = String(trial!.id);
    await server.sql(`update trials set ends_at = '${past}' where id = '${id}'`);
    await server.sql(
      `update entitlement_grants set ends_at = '${past}' where id = (select grant_id from trials where id = '${id}')`,
    );
    await server.sql(
      `update jobs set run_at = now(), payload = payload || '{"endsAt": "${past}"}'::jsonb
        where kind = 'mail.trial' and payload->>'template' = 'ended' and payload->>'trialId' = '${id}'`,
    );
    await server.jobsSettled();
    expect(mailsTo(email)).toHaveLength(3);
    expect(mailsTo(email)[2]).toBe("Your Pinout Pro trial has ended");
    const page = await pageText(server, "/account/subscription", cookie);
    expect(page).toContain("Plan Free");
    expect(page).toMatch(/Your free Pro trial ended on \d{1,2} [A-Z][a-z]{2} \d{4}\./);
    expect(page).not.toMatch(/Start the \d+-day free trial/);
    const access = await signInDevice(server, cookie, "Ravi's PC");
    const body = await me(access);
    expect(body.entitlement).toMatchObject({ plan: "free", expires_at: null });
    expect(body.trial).toBeNull();
    // Nothing was charged: no subscription, no payment.
    expect(
      await server.sql(
        `select (select count(*)::int from subscriptions s join "user" u on u.id = s.user_id where u.email = '${email}') as subscriptions,
                (select count(*)::int from payments p join "user" u on u.id = p.user_id where u.email = '${email}') as payments`,
      ),
    ).toEqual([{ subscriptions: 0, payments: 0 }]);
  });

  it("a checkout opened and never paid does not silence the reminders", async () => {
    const email = "nisha@example.com";
    const cookie = await signUpVerified(server, { name: "Nisha", email, password: PASSWORD });
    expect((await startTrial(cookie)).status).toBe(200);
    const opened = await startCheckout(server, cookie, "pro-monthly");
    expect(opened.subscriptionId).not.toBeNull();
    await server.sql(
      `update jobs set run_at = now() where kind = 'mail.trial' and payload->>'template' <> 'ended' and payload->>'trialId' =
        (select t.id::text from trials t join "user" u on u.id = t.user_id where u.email = '${email}')`,
    );
    await server.jobsSettled();
    expect(mailsTo(email)).toHaveLength(2);
    expect(
      mailsTo(email).every((subject) => subject.startsWith("Your Pinout Pro trial ends on")),
    ).toBe(true);
  });

  it("buying during the trial starts the plan at once, at its price, and the trial's mails stop", async () => {
    const email = "meera@example.com";
    const cookie = await signUpVerified(server, { name: "Meera", email, password: PASSWORD });
    expect((await startTrial(cookie)).status).toBe(200);
    await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    const access = await signInDevice(server, cookie, "Meera's Mac");
    const body = await me(access);
    expect(body.entitlement).toMatchObject({ plan: "pro-monthly", renews: true });
    expect(body.trial).toBeNull();
    const page = await pageText(server, "/account/subscription", cookie);
    expect(page).toContain("Plan Pro (monthly)");
    expect(page).not.toContain("Your free Pro trial");
    // The reminders come due: nothing is sent to someone who bought.
    await server.sql(
      `update jobs set run_at = now() where kind = 'mail.trial' and payload->>'trialId' =
        (select t.id::text from trials t join "user" u on u.id = t.user_id where u.email = '${email}')`,
    );
    await server.jobsSettled();
    expect(mailsTo(email)).toEqual([]);
    const [paid] = await server.sql(
      `select p.amount_paise from payments p join "user" u on u.id = p.user_id where u.email = '${email}'`,
    );
    expect(Number(paid!.amount_paise)).toBe(69_900);
  });

  it("buying during the trial to start at its end: authorised now, nothing charged, the first charge at the trial's end", async () => {
    const email = "kiran@example.com";
    const cookie = await signUpVerified(server, { name: "Kiran", email, password: PASSWORD });
    expect((await startTrial(cookie)).status).toBe(200);
    const [trial] = await server.sql(
      `select t.id, ${MS("t.ends_at")} as ends_ms from trials t join "user" u on u.id = t.user_id where u.email = '${email}'`,
    );
    const endsAt = new Date(Number(trial!.ends_ms));
    const endDay = formatDate(endsAt.toISOString());

    // The page offers both, the trial's end first, and says what each means.
    const checkout = await pageText(server, "/checkout?plan=pro-monthly", cookie);
    expect(checkout).toContain(`When my trial ends, on ${endDay}`);
    expect(checkout).toContain(`Authorise now; the first charge is on ${endDay}.`);
    expect(checkout).toContain(
      `Nothing is charged today. The first charge, ₹699, is on ${endDay}, when your trial ends;`,
    );
    expect(checkout).toContain(`Authorise Pro (monthly): first charge on ${endDay}`);

    const started = await startCheckout(server, cookie, "pro-monthly", DETAILS, {
      start: "after-trial",
    });
    expect(started.status).toBe(200);
    const subscriptionId = started.subscriptionId!;
    // At Razorpay: the subscription starts when the trial ends.
    const atRazorpay = await sandboxApi<{ start_at: number; status: string }>(
      server.url,
      `/v1/subscriptions/${subscriptionId}`,
    );
    expect(atRazorpay.start_at).toBe(Math.floor(endsAt.getTime() / 1000));
    // Asking again for "now" does not reuse the checkout opened for later.
    const now = await startCheckout(server, cookie, "pro-monthly", DETAILS, { start: "now" });
    expect(now.subscriptionId).not.toBe(subscriptionId);
    const later = await startCheckout(server, cookie, "pro-monthly", DETAILS, {
      start: "after-trial",
    });
    expect(later.subscriptionId).not.toBe(now.subscriptionId);

    const paid = await sandboxPay(server, later.subscriptionId!, "success");
    expect(paid.status).toBe(200);
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    const authorised = new RegExp(
      `Pro \\(monthly\\) is authorised: the first charge, ₹699, is on ${endDay}\\.`,
    );
    await eventually(
      async () => authorised.test(await pageText(server, "/account/subscription", cookie)),
      20_000,
      "the authorised plan on /account/subscription",
    );
    const page = await pageText(server, "/account/subscription", cookie);
    expect(page).toContain("Plan Pro (free trial)");
    expect(page).toContain(
      `Pro (monthly) starts when it ends: the first charge, ₹699, is on ${endDay}, and nothing is charged before.`,
    );
    expect(page).toContain(`Next charge ₹699 on ${endDay}`);
    const captured = () =>
      server.sql(
        `select p.amount_paise from payments p join "user" u on u.id = p.user_id
          where u.email = '${email}' and p.status = 'captured'`,
      );
    expect(await captured()).toEqual([]);
    // The app: Pro, going on by itself after the trial, but nothing is paid yet: the licence
    // ends with the trial (finding 12), not 7 days on.
    const access = await signInDevice(server, cookie, "Kiran's PC");
    const authorisedMe = await me(access);
    expect(authorisedMe.entitlement).toMatchObject({ plan: "pro-monthly", renews: true });
    expect(decodeJwt(authorisedMe.license).exp).toBe(Math.floor(endsAt.getTime() / 1000));

    // The reminders say that the trial turns paid, when and for how much; nothing at the end.
    await server.sql(
      `update jobs set run_at = now() where kind = 'mail.trial' and payload->>'trialId' = '${String(trial!.id)}'`,
    );
    await server.jobsSettled();
    const subject = `Your Pinout Pro trial ends on ${endDay}: Pro (monthly) starts then`;
    expect(mailsTo(email)).toEqual([subject, subject]);
    expect(
      readOutbox(server.dataDir)
        .find((mail) => mail.to.includes(email) && mail.subject === subject)
        ?.text.replace(/\s+/g, " "),
    ).toContain(
      `₹699 (GST included) will be charged on ${endDay} to the payment method you authorised`,
    );

    // The trial's end: Razorpay's first charge, at the price, with its invoice.
    expect(
      (await sandboxCharge(`${server.url}/_sandbox/razorpay`, later.subscriptionId!)).status,
    ).toBe(200);
    await eventually(
      async () => /Status Active/.test(await pageText(server, "/account/subscription", cookie)),
      20_000,
      "the plan active after its first charge",
    );
    expect((await captured()).map((row) => Number(row.amount_paise))).toEqual([69_900]);
    await server.jobsSettled();
    expect(
      await server.sql(
        `select count(*)::int as invoices from invoices i join "user" u on u.id = i.user_id
          where u.email = '${email}' and i.kind = 'invoice'`,
      ),
    ).toEqual([{ invoices: 1 }]);
    expect(mailsTo(email)).toEqual([subject, subject]);
  });

  it("finding 12: a plan authorised to start when the trial ends gives no licence past the trial's end, and cancelling it gives none past now", async () => {
    const email = "rohan@example.com";
    const cookie = await signUpVerified(server, { name: "Rohan", email, password: PASSWORD });
    expect((await startTrial(cookie)).status).toBe(200);
    const [trial] = await server.sql(
      `select ${MS("t.ends_at")} as ends_ms from trials t join "user" u on u.id = t.user_id where u.email = '${email}'`,
    );
    const trialEnd = Math.floor(Number(trial!.ends_ms) / 1000);
    const later = await startCheckout(server, cookie, "pro-monthly", DETAILS, {
      start: "after-trial",
    });
    const paid = await sandboxPay(server, later.subscriptionId!, "success");
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from subscriptions where provider_subscription_id = '${later.subscriptionId}' and status = 'authenticated'`,
          )
        ).length === 1,
      20_000,
      "the plan authorised",
    );
    const access = await signInDevice(server, cookie, "Rohan's PC");
    const before = decodeJwt((await me(access)).license);
    expect(before.exp).toBe(trialEnd);
    // Cancelled before its first charge: the next check-in's licence is the trial's, no longer.
    expect((await cancelThroughFlow(server, cookie)).location).toBe(
      "/account/subscription?notice=cancelled",
    );
    await server.jobsSettled();
    const after = await me(access);
    expect(decodeJwt(after.license).exp).toBeLessThanOrEqual(trialEnd);
    // Still Pro: the trial's own grant, which ends when it does.
    expect(after.entitlement).toMatchObject({ plan: "pro-monthly", renews: false });
  });

  it("records each trial's end once, as trial_end of the browser that started it with consent", async () => {
    // A browser that consented to analytics, with the id the site gave it.
    const issued = await postJson(
      server,
      "/api/events",
      { events: [{ name: "cta_click", params: { cta_name: "trial", cta_location: "pricing" } }] },
      { cookie: "consent=granted" },
    );
    const aid = /pinout_aid=[^;]+/.exec(issued.headers.getSetCookie().join("\n"))![0];
    const tara = await signUpVerified(server, {
      name: "Tara",
      email: "tara@example.com",
      password: PASSWORD,
    });
    expect((await startTrial(`${tara}; consent=granted; ${aid}`)).status).toBe(200);
    // Another starts hers without consent: her end is recorded, no event.
    const uma = await signUpVerified(server, {
      name: "Uma",
      email: "uma@example.com",
      password: PASSWORD,
    });
    expect((await startTrial(uma)).status).toBe(200);
    const ids = (
      await server.sql(
        `select t.id from trials t join "user" u on u.id = t.user_id where u.email in ('tara@example.com', 'uma@example.com')`,
      )
    ).map((row) => `'${String(row.id)}'`);
    expect(ids).toHaveLength(2);

    // The ends come, and each end's job runs twice (a retry after a crash, a second instance).
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
    await server.sql(
      `update trials set started_at = '${past}'::timestamptz - interval '${TRIAL_DAYS} days', ends_at = '${past}'
        where id in (${ids.join(", ")})`,
    );
    await server.sql(
      `update jobs set run_at = now(), payload = payload || '{"endsAt": "${past}"}'::jsonb
        where kind = 'trial.end' and payload->>'trialId' in (${ids.join(", ")})`,
    );
    await server.sql(
      `insert into jobs (kind, payload, run_at)
         select kind, payload, now() from jobs
          where kind = 'trial.end' and payload->>'trialId' in (${ids.join(", ")})`,
    );
    await server.jobsSettled();
    const events = await server.sql(
      `select client_id, params from analytics_events where name = 'trial_end'`,
    );
    expect(events).toEqual([
      {
        client_id: expect.any(String),
        params: {
          plan_name: analyticsPlanName("pro-monthly"),
          trial_days: TRIAL_DAYS,
          converted: false,
        },
      },
    ]);
    expect(aid).toContain(String(events[0]!.client_id));
    expect(
      await server.sql(
        `select count(*)::int as recorded from trials where id in (${ids.join(", ")}) and end_recorded_at is not null`,
      ),
    ).toEqual([{ recorded: 2 }]);
    // A browser cannot send one itself.
    const forged = await postJson(
      server,
      "/api/events",
      {
        events: [
          { name: "trial_end", params: { plan_name: "Pro", trial_days: 14, converted: true } },
        ],
      },
      { cookie: `consent=granted; ${aid}` },
    );
    expect(forged.status).toBe(400);
  });

  it("one trial per computer: started from the app, refused to another account on the same machine", async () => {
    const machine = { machine_id: "IOPlatformUUID-5A1C-4F2B-9E11-0123456789AB" };
    const first = await signUpVerified(server, {
      name: "Kavya",
      email: "kavya@example.com",
      password: PASSWORD,
    });
    const access = await signInDevice(server, first, "Kavya's Mac", machine);
    const trialFromApp = () =>
      fetch(`${server.url}/api/desktop/trial`, {
        method: "POST",
        headers: { authorization: `Bearer ${access}` },
      });
    const started = await trialFromApp();
    expect(started.status).toBe(200);
    const { trial } = (await started.json()) as { trial: { ends_at: string; days_left: number } };
    expect(trial.days_left).toBe(TRIAL_DAYS);
    expect((await me(access)).trial).toEqual(trial);
    expect((await me(access)).entitlement).toMatchObject({ plan: "pro-monthly", renews: false });
    // Asked again from the app: refused, with the reason and the words to show.
    const again = await trialFromApp();
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      error: "trial_refused",
      reason: "trial-running",
      error_description: "Your Pro trial is already on.",
    });

    // Another account, another mailbox, the same computer: no second trial, by either way.
    const second = await signUpVerified(server, {
      name: "Kavya's sister",
      email: "meenakshi@example.org",
      password: PASSWORD,
    });
    const otherAccess = await signInDevice(server, second, "The same Mac", machine);
    const refused = await startTrial(second);
    expect(refused.status).toBe(409);
    expect(textOf(await refused.text())).toContain(
      "A computer signed in to this account has already had a free trial, on another account.",
    );
    const fromApp = await fetch(`${server.url}/api/desktop/trial`, {
      method: "POST",
      headers: { authorization: `Bearer ${otherAccess}` },
    });
    expect(fromApp.status).toBe(409);
    expect(await fromApp.json()).toMatchObject({ reason: "machine-had-trial" });
    // Only a keyed hash of the identifier is stored.
    expect(
      await server.sql(
        `select count(*)::int as n from desktop_devices where machine_key like '%5A1C%' or machine_key like '%IOPlatform%'`,
      ),
    ).toEqual([{ n: 0 }]);
    // Without a token, nothing.
    expect((await fetch(`${server.url}/api/desktop/trial`, { method: "POST" })).status).toBe(401);
  });

  it("the operator sees the trial on the customer's page and extends it, audited, with mails for the new end", async () => {
    const email = "dev@example.com";
    const cookie = await signUpVerified(server, { name: "Dev", email, password: PASSWORD });
    expect((await startTrial(cookie)).status).toBe(200);
    const path = `/admin-fix-subscription?email=${encodeURIComponent(email)}`;
    const html = await (await getWithCookies(server, path, boss)).text();
    expect(textOf(html)).toMatch(
      new RegExp(
        `Started \\d{1,2} [A-Z][a-z]{2} \\d{4} from the site; ${TRIAL_DAYS} days left, ends \\d{1,2} [A-Z][a-z]{2} \\d{4}\\.`,
      ),
    );
    const userId = /name="userId" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const ends = async () =>
      Number(
        (
          await server.sql(
            `select ${MS("t.ends_at")} as ms from trials t join "user" u on u.id = t.user_id where u.email = '${email}'`,
          )
        )[0]!.ms,
      );
    const before = await ends();

    // A customer cannot; a missing reason is a field error; then the operator extends it.
    expect(
      (
        await postForm(server, path, cookie, {
          intent: "extend-trial",
          userId,
          days: "7",
          reason: "x",
        })
      ).status,
    ).toBe(403);
    const noReason = await postForm(server, path, boss, {
      intent: "extend-trial",
      userId,
      days: "7",
      reason: "",
    });
    expect(noReason.status).toBe(400);
    const extended = await postForm(server, path, boss, {
      intent: "extend-trial",
      userId,
      days: "7",
      reason: "Evaluating for a team of five",
    });
    expect(extended.status).toBe(200);
    expect(textOf(await extended.text())).toContain(
      `The free trial now ends on ${formatDate(new Date(before + 7 * DAY_MS).toISOString())}, 7 days later.`,
    );
    expect(await ends()).toBe(before + 7 * DAY_MS);
    const access = await signInDevice(server, cookie, "Dev's PC");
    expect((await me(access)).trial?.days_left).toBe(TRIAL_DAYS + 7);
    expect(
      await server.sql(
        `select action, reason from audit_log where action = 'trial.extend' and target_user_id = '${userId}'`,
      ),
    ).toEqual([{ action: "trial.extend", reason: "Evaluating for a team of five" }]);
    // The mails for the old end send nothing; those for the new end are queued.
    const queued = await server.sql(
      `select payload->>'endsAt' as ends from jobs where kind = 'mail.trial' and completed_at is null
        and payload->>'trialId' = (select t.id::text from trials t where t.user_id = '${userId}')`,
    );
    expect(new Set(queued.map((row) => row.ends))).toEqual(
      new Set([new Date(before).toISOString(), new Date(before + 7 * DAY_MS).toISOString()]),
    );
  });
});
