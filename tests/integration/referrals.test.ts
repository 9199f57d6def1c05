/**
 * Issue 36, point 9: referral links. A customer's link leads to pricing with the referral coupon
 * and is remembered; the account made meanwhile is recorded as referred; its first payment,
 * unrefunded past the refund window, gives the referrer the configured days of Pro once, shown to
 * both and on the cockpit. A refund inside the window gives nothing; nobody refers themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { eventually } from "../support/eventually";
import { pageText } from "../support/pages";
import { sandboxApi, sandboxPay, startCheckout } from "../support/billing";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "referral-test-password-1";
const DAY_MS = 86_400_000;

describe.each(engines())("referral links on $name", (engine) => {
  let server: RunningTestServer;
  let boss = "";

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "200", REFERRAL_COUPON: "friend10", REFERRAL_REWARD_DAYS: "30" },
    }));
    const offer = await sandboxApi<{ id: string }>(server.url, "/control/offers", {
      method: "POST",
      body: JSON.stringify({
        name: "Friends",
        type: "single_use",
        discount_type: "percentage",
        discount_value: 10,
      }),
    });
    const made = await postForm(server, "/admin/coupons", boss, {
      intent: "create",
      code: "FRIEND10",
      kind: "percent",
      amount: "10",
      duration: "once",
      offerId: offer.id,
      offerMethod: "any",
      perCustomer: "1",
    });
    expect(made.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signUp = (email: string, cookie = "") =>
    signUpVerified(server, { name: email.split("@")[0]!, email, password: PASSWORD }, cookie);
  const codeOf = async (cookie: string) => {
    // The link is the value of a read-only field.
    const account = await (await getWithCookies(server, "/account", cookie)).text();
    const code = /value="[^"]*\/r\/([0-9A-Z]{8})"/.exec(account)?.[1];
    expect(code).toBeDefined();
    return code!;
  };
  const follow = (code: string) => fetch(`${server.url}/r/${code}`, { redirect: "manual" });
  const buy = async (cookie: string, extra: Record<string, string> = {}) => {
    const started = await startCheckout(server, cookie, "pro-monthly", undefined, extra);
    expect(started.status, started.body).toBe(200);
    const paid = await sandboxPay(server, started.subscriptionId!, "success");
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    const [payment] = await eventually(async () => {
      const rows = await server.sql(
        `select p.provider_payment_id, p.amount_paise from payments p
           join subscriptions s on s.id = p.subscription_id
          where s.provider_subscription_id = '${started.subscriptionId}' and p.status = 'captured'`,
      );
      return rows.length > 0 ? rows : undefined;
    });
    return {
      paymentId: String(payment!.provider_payment_id),
      amount: Number(payment!.amount_paise),
    };
  };
  /** The refund window passes (the payments move back): the reward jobs come due and run. */
  const windowPasses = async () => {
    await server.sql(
      `update referrals set first_paid_at = first_paid_at - interval '8 days' where first_paid_at is not null`,
    );
    await server.sql(
      `update payments set paid_at = paid_at - interval '8 days'
        where provider_payment_id in (select first_payment_id from referrals)`,
    );
    await server.sql(`update jobs set run_at = now() where kind = 'referral.reward'`);
    await server.jobsSettled();
  };

  it("link → sign-up → payment → the reward once, shown to both and on the cockpit", async () => {
    const asha = await signUp("asha@example.com");
    const card = await pageText(server, "/account", asha);
    expect(card).toContain("Invite friends");
    expect(card).toContain(
      "Friends who sign up through your link get 10% off on the first payment. You get 30 days of Pro for each friend whose first payment is past the 7-day refund window.",
    );
    const code = await codeOf(asha);
    expect(await codeOf(asha)).toBe(code);

    // The link: pricing with the referral coupon, and the code remembered for 30 days.
    const visit = await follow(code.toLowerCase());
    expect(visit.status).toBe(302);
    expect(visit.headers.get("location")).toBe(`/pricing?coupon=FRIEND10&ref=${code}`);
    const cookie = visit.headers.getSetCookie().find((line) => line.startsWith("pinout_ref="));
    expect(cookie).toMatch(
      new RegExp(`^pinout_ref=${code}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`),
    );
    expect(await pageText(server, `/pricing?coupon=FRIEND10&ref=${code}`, "")).toContain(
      "Coupon FRIEND10: 10% off on the first payment.",
    );
    // A code that is nobody's is just pricing, remembered nowhere.
    const stray = await follow("ZZZZZZZZ");
    expect(stray.headers.get("location")).toBe("/pricing");
    expect(stray.headers.getSetCookie()).toEqual([]);

    const ravi = await signUp("ravi@example.com", `pinout_ref=${code}`);
    expect(
      await server.sql(
        `select r.email as referrer from referrals x join "user" r on r.id = x.referrer_user_id
           join "user" d on d.id = x.referred_user_id where d.email = 'ravi@example.com'`,
      ),
    ).toEqual([{ referrer: "asha@example.com" }]);
    expect(await pageText(server, "/account", ravi)).toContain(
      "You joined through a friend's link: when you first pay for Pro, they get 30 days of Pro.",
    );

    const first = await buy(ravi, { coupon: "FRIEND10" });
    expect(first.amount).toBe(62_910);
    await eventually(async () =>
      (await pageText(server, "/account", asha)).includes(
        "Signed up through your link: 1. Paid: 1 (1 waiting for the refund window).",
      ),
    );
    expect(await pageText(server, "/account", ravi)).toContain(
      "once your first payment is past the 7-day refund window, they get 30 days of Pro.",
    );
    // Before the window ends: nothing given.
    await server.jobsSettled();
    expect(
      await server.sql(
        `select count(*)::int as n from entitlement_grants where reason = 'referral'`,
      ),
    ).toEqual([{ n: 0 }]);

    await windowPasses();
    const grants = await server.sql(
      `select (extract(epoch from g.ends_at - g.starts_at) * 1000)::float8 as ms
         from entitlement_grants g join "user" u on u.id = g.user_id
        where u.email = 'asha@example.com' and g.reason = 'referral'`,
    );
    expect(grants.map((row) => Number(row.ms))).toEqual([30 * DAY_MS]);
    // Once: the job again, and a replayed payment, give nothing more.
    await server.sql(
      `insert into jobs (kind, payload, run_at, max_attempts)
       select 'referral.reward', jsonb_build_object('referralId', id), now(), 3 from referrals`,
    );
    await server.jobsSettled();
    expect(
      await server.sql(
        `select count(*)::int as grants from entitlement_grants where reason = 'referral'`,
      ),
    ).toEqual([{ grants: 1 }]);
    expect(
      await server.sql(
        `select action, actor_email from audit_log where action = 'referral.reward'`,
      ),
    ).toEqual([{ action: "referral.reward", actor_email: "the site (automatic)" }]);

    await server.jobsSettled();
    expect(
      readOutbox(server.dataDir)
        .filter((mail) => mail.to.includes("asha@example.com"))
        .map((mail) => mail.subject),
    ).toContain("You earned 30 days of Pinout Pro");
    expect(
      readOutbox(server.dataDir).filter(
        (mail) => mail.subject === "You earned 30 days of Pinout Pro",
      ),
    ).toHaveLength(1);
    const after = await pageText(server, "/account", asha);
    expect(after).toContain("Signed up through your link: 1. Paid: 1.");
    expect(after).toMatch(
      /30 days of Pro, given \d{1,2} [A-Z][a-z]{2} \d{4}: Pro until \d{1,2} [A-Z][a-z]{2} \d{4}\./,
    );
    expect(after).toMatch(/Plan Pro/);
    expect(await pageText(server, "/account", ravi)).toContain(
      "You joined through a friend's link: your first payment earned them 30 days of Pro. Thank you.",
    );

    const cockpit = await pageText(server, "/admin/analytics", boss);
    expect(cockpit).toContain("Referrals by referrer");
    expect(cockpit).toMatch(/asha@example\.com 1 1 ₹629\.10 1/);
  });

  it("a refund inside the window gives no reward; nobody refers themselves", async () => {
    const meera = await signUp("meera.k@gmail.com");
    const code = await codeOf(meera);
    // Another account on Meera's own Gmail mailbox: not a referral.
    await signUp("meera.k+alt@gmail.com", `pinout_ref=${code}`);
    const mohan = await signUp("mohan@example.com", `pinout_ref=${code}`);
    expect(
      await server.sql(
        `select d.email from referrals x join "user" r on r.id = x.referrer_user_id
           join "user" d on d.id = x.referred_user_id where r.email = 'meera.k@gmail.com'`,
      ),
    ).toEqual([{ email: "mohan@example.com" }]);

    const { paymentId } = await buy(mohan);
    await sandboxApi(server.url, `/v1/payments/${paymentId}/refund`, {
      method: "POST",
      body: JSON.stringify({}),
    });
    await eventually(async () => {
      const [row] = await server.sql(
        `select count(*)::int as n from refunds where provider_payment_id = '${paymentId}'`,
      );
      return Number(row!.n) > 0;
    });
    await windowPasses();
    expect(
      await server.sql(
        `select x.void_reason, x.rewarded_at from referrals x join "user" d on d.id = x.referred_user_id
          where d.email = 'mohan@example.com'`,
      ),
    ).toEqual([{ void_reason: "refunded", rewarded_at: null }]);
    expect(
      await server.sql(
        `select count(*)::int as n from entitlement_grants g join "user" u on u.id = g.user_id
          where u.email = 'meera.k@gmail.com'`,
      ),
    ).toEqual([{ n: 0 }]);
    expect(await pageText(server, "/account", meera)).toContain(
      "Signed up through your link: 1. Paid: 0.",
    );

    // The referral coupon is marked for the operator; once withdrawn, links lead to pricing
    // without it (not to a refusal).
    const coupons = await pageText(server, "/admin/coupons", boss);
    expect(coupons).toMatch(/FRIEND10 Referral coupon/);
    const [friend] = await server.sql(`select id from coupons where code = 'FRIEND10'`);
    await postForm(server, "/admin/coupons", boss, { intent: "disable", id: String(friend!.id) });
    expect((await follow(code)).headers.get("location")).toBe(`/pricing?ref=${code}`);
  });
});
