/**
 * Issue 53, finding 10: one free trial per computer. A trial started on the website, with no
 * computer signed in yet, was never checked against the computers that had one: signing the app
 * in on such a computer afterwards kept the second trial. Now the first computer a trial account
 * signs in on is checked too; one that already had a free trial on another account ends this
 * account's trial at once, and the account page and the trial's end mail say why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { desktopHandoff, exchangeHandoff, signInDevice } from "../support/desktop";
import { pageText } from "../support/pages";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "trial-machine-password-1";
const WHY =
  "a computer signed in to this account has already had a free trial, on another account.";

describe.each(engines())("one free trial per computer on $name", (engine) => {
  let server: RunningTestServer;
  let boss = "";

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "100", TRIAL_DAYS: "14" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signUp = (name: string, email: string) =>
    signUpVerified(server, { name, email, password: PASSWORD });
  const startTrial = (cookie: string) =>
    postForm(server, "/account/subscription", cookie, { intent: "start-trial" });
  const me = async (access: string) =>
    (await (
      await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${access}` },
      })
    ).json()) as { entitlement: { plan: string }; trial: unknown };
  const trialOf = async (email: string) =>
    (
      await server.sql(
        `select t.ends_at > now() as running, g.ends_at > now() as granted
           from trials t join "user" u on u.id = t.user_id
           left join entitlement_grants g on g.id = t.grant_id
          where u.email = '${email}'`,
      )
    )[0];
  const endMails = (email: string) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && mail.subject === "Your Pinout Pro trial has ended",
    );

  it("finding 10: a trial started on the website ends when its first computer already had a trial on another account", async () => {
    const mac = { machine_id: "IOPlatformUUID-7C2D-4A10-8B3E-00AA11BB22CC" };
    // The first account's trial, with the Mac signed in: the Mac has had a free trial.
    const first = await signUp("Nisha", "nisha@example.com");
    await signInDevice(server, first, "Nisha's Mac", mac);
    expect((await startTrial(first)).status).toBe(200);

    // A second account starts its trial on the website, with no computer signed in yet…
    const second = await signUp("Nisha again", "nisha.second@example.org");
    expect((await startTrial(second)).status).toBe(200);
    expect(await trialOf("nisha.second@example.org")).toEqual({ running: true, granted: true });

    // …then signs the app in on the same Mac: signed in, but on Free, the trial ended now.
    const access = await signInDevice(server, second, "The same Mac", mac);
    expect(await trialOf("nisha.second@example.org")).toEqual({ running: false, granted: false });
    const fromApp = await me(access);
    expect(fromApp.entitlement.plan).toBe("free");
    expect(fromApp.trial).toBeNull();
    const page = await pageText(server, "/account/subscription", second);
    expect(page).toMatch(/Plan Free/);
    const said = new RegExp(
      `Your free Pro trial ended on \\d{1,2} [A-Z][a-z]{2} \\d{4}, early: ${WHY}`,
    );
    expect(page).toMatch(said);
    await server.jobsSettled();
    const mails = endMails("nisha.second@example.org");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text.replace(/\s+/g, " ")).toMatch(said);
    // The operator reads why on the customer's page.
    const operator = await pageText(
      server,
      `/admin-fix-subscription?email=${encodeURIComponent("nisha.second@example.org")}`,
      boss,
    );
    expect(operator).toMatch(
      new RegExp(`Started .* from the site; ended \\d{1,2} [A-Z][a-z]{2} \\d{4}, early: ${WHY}`),
    );

    // Another sign-in is held to Free's one device, as for any Free account; nothing more is
    // ended or mailed.
    const again = await exchangeHandoff(
      server,
      await desktopHandoff(server, second),
      "The same Mac, again",
      mac,
    );
    expect(again.status).toBe(403);
    await server.jobsSettled();
    expect(endMails("nisha.second@example.org")).toHaveLength(1);
    // The first account's trial is untouched.
    expect(await trialOf("nisha@example.com")).toEqual({ running: true, granted: true });
    expect(endMails("nisha@example.com")).toHaveLength(0);

    // A website trial whose first computer is new to trials runs on, that computer now its.
    const third = await signUp("Omar", "omar@example.com");
    expect((await startTrial(third)).status).toBe(200);
    const omarAccess = await signInDevice(server, third, "Omar's PC", {
      machine_id: "a3f1c2d4-0000-4000-8000-0123456789ab",
    });
    expect(await trialOf("omar@example.com")).toEqual({ running: true, granted: true });
    expect((await me(omarAccess)).entitlement.plan).toBe("pro-monthly");
    const page3 = await pageText(server, "/account/subscription", third);
    expect(page3).toContain("Plan Pro (free trial)");
  });
});
