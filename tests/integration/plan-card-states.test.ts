/**
 * Issue 54, acceptance 1: every state × buyer, read as the customer reads it. For a person's own
 * subscription in each state, a trial, a plan authorised to start when the trial ends, a grant, a
 * team's seat, a paused subscription and a scheduled switch, `/account`, `/account/subscription`
 * and `/api/desktop/me` agree on the plan, say where it comes from, show the next charge (or
 * none), and never offer an upgrade or a trial while Pro is held.
 *
 * The states are written into the database as Razorpay's webhooks would have left them (the
 * journeys that reach each are tested on their own elsewhere): this test is about what every
 * reader makes of one stored state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { signInDevice } from "../support/desktop";
import { textOf } from "../support/pages";
import { engines } from "../support/engines";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "plan-card-states-password-1";

interface Ctx {
  server: RunningTestServer;
  userId: string;
  cookie: string;
}

/** A row of `subscriptions` as a webhook would have stored it; SQL expressions as values. */
async function insertSubscription(
  { server }: Ctx,
  fields: Record<string, string>,
): Promise<string> {
  const columns = {
    provider_subscription_id: `'sub_${Math.random().toString(36).slice(2, 16)}'`,
    plan_id: "'pro-monthly'",
    provider_plan_id: "'plan_StatesTable01'",
    current_start: "now() - interval '10 days'",
    current_end: "now() + interval '20 days'",
    charge_at: "now() + interval '20 days'",
    paid_count: "1",
    synced_at: "now()",
    ...fields,
  };
  const [row] = await server.sql(
    `insert into subscriptions (${Object.keys(columns).join(", ")})
     values (${Object.values(columns).join(", ")}) returning id`,
  );
  return String(row!.id);
}
const own = (ctx: Ctx, fields: Record<string, string>) =>
  insertSubscription(ctx, { user_id: `'${ctx.userId}'`, ...fields });

interface Case {
  name: string;
  setup(ctx: Ctx): Promise<void>;
  /** The plan both pages name. */
  plan: string;
  /** Where it comes from, on /account (null: nothing said, it is the person's own or Free). */
  source: RegExp | null;
  /** The next charge on /account/subscription, or null for none. */
  nextCharge: RegExp | null;
  /** What the desktop app is told. */
  me: { plan: string; team?: string };
  /** Extra words the subscription page must (and must not) say in this state. */
  says?: (string | RegExp)[];
  never?: (string | RegExp)[];
}

const OFFERS = ["Upgrade to Pro", "free for 14 days", "Start the 14-day free trial"];

const CASES: Case[] = [
  {
    name: "Free, nothing bought",
    setup: async () => {},
    plan: "Free",
    source: null,
    nextCharge: null,
    me: { plan: "free" },
    says: ["Upgrade to Pro", "Start the 14-day free trial"],
  },
  {
    name: "own subscription, active",
    setup: async (ctx) => void (await own(ctx, { status: "'active'" })),
    plan: "Pro (monthly)",
    source: null,
    nextCharge: /^₹699 on \d{1,2} \w{3} \d{4}$/,
    me: { plan: "pro-monthly" },
    says: ["Pause subscription", "Cancel at end of period"],
  },
  {
    name: "own subscription, cancelled to end with its period",
    setup: async (ctx) =>
      void (await own(ctx, { status: "'active'", cancel_at_cycle_end: "true" })),
    plan: "Pro (monthly)",
    source: null,
    nextCharge: null,
    me: { plan: "pro-monthly" },
    says: ["Keep my subscription", /you keep Pro until/],
    never: ["Pause subscription"],
  },
  {
    name: "own subscription, a failed charge being retried",
    setup: async (ctx) => void (await own(ctx, { status: "'pending'" })),
    plan: "Pro (monthly)",
    source: null,
    nextCharge: null,
    me: { plan: "pro-monthly" },
    says: ["Fix payment"],
  },
  {
    name: "own subscription, halted after failed charges",
    setup: async (ctx) => void (await own(ctx, { status: "'halted'" })),
    plan: "Free",
    source: null,
    nextCharge: null,
    me: { plan: "free" },
    says: ["Restart Pro", "Fix payment"],
  },
  {
    name: "own subscription, paused here (the paid period runs out first)",
    setup: async (ctx) =>
      void (await own(ctx, {
        status: "'paused'",
        paused_at: "now() - interval '1 day'",
        paused_by: "'merchant'",
      })),
    plan: "Pro (monthly)",
    source: null,
    nextCharge: null,
    me: { plan: "pro-monthly" },
    says: ["Resume subscription", /Pro \(monthly\) was paused on \d/],
    never: ["Pause subscription"],
  },
  {
    name: "own subscription, paused in the customer's UPI app",
    setup: async (ctx) =>
      void (await own(ctx, {
        status: "'paused'",
        paused_at: "now() - interval '1 day'",
        paused_by: "'customer'",
      })),
    plan: "Pro (monthly)",
    source: null,
    nextCharge: null,
    me: { plan: "pro-monthly" },
    says: ["in your UPI app"],
    never: ["Resume subscription"],
  },
  {
    name: "own subscription, a switch to yearly scheduled",
    setup: async (ctx) => {
      const old = await own(ctx, {
        status: "'active'",
        cancel_at_cycle_end: "true",
        cancel_reason: "'switched plan'",
      });
      await own(ctx, {
        status: "'authenticated'",
        plan_id: "'pro-yearly'",
        replaces_subscription_id: `'${old}'`,
        current_start: "null",
        current_end: "null",
        start_at: "now() + interval '20 days'",
        charge_at: "now() + interval '20 days'",
        paid_count: "0",
      });
    },
    plan: "Pro (monthly)",
    source: null,
    nextCharge: /^₹6,999 on \d{1,2} \w{3} \d{4}, for Pro \(yearly\)$/,
    me: { plan: "pro-monthly" },
    says: ["Stay on Pro (monthly)", /Switching to Pro \(yearly\) on/],
    never: ["Pause subscription", "Keep my subscription"],
  },
  {
    name: "own subscription, ended: refunded in full",
    setup: async (ctx) =>
      void (await own(ctx, {
        status: "'cancelled'",
        end_reason: "'refunded'",
        ended_at: "now()",
      })),
    plan: "Free",
    source: null,
    nextCharge: null,
    me: { plan: "free" },
    says: ["Ended: refunded in full"],
  },
  {
    name: "own subscription, cancelled with paid time left",
    setup: async (ctx) =>
      void (await own(ctx, {
        status: "'cancelled'",
        end_reason: "'customer'",
        ended_at: "now()",
      })),
    plan: "Pro (monthly)",
    source: null,
    nextCharge: null,
    me: { plan: "pro-monthly" },
    says: [/You keep Pro until/],
  },
  {
    name: "a free trial",
    setup: async ({ server, cookie }) => {
      const started = await postForm(server, "/account/subscription", cookie, {
        intent: "start-trial",
      });
      expect(started.status).toBeLessThan(400);
    },
    plan: "Pro (free trial)",
    source: /^Pro trial: 14 days left, ends \d{1,2} \w{3} \d{4}\. Nothing is charged/,
    nextCharge: null,
    me: { plan: "pro-monthly" },
    says: ["Your free Pro trial"],
  },
  {
    name: "a plan authorised to start when the trial ends",
    setup: async (ctx) => {
      const started = await postForm(ctx.server, "/account/subscription", ctx.cookie, {
        intent: "start-trial",
      });
      expect(started.status).toBeLessThan(400);
      const [trial] = await ctx.server.sql(
        `select ends_at from trials where user_id = '${ctx.userId}'`,
      );
      const end = `'${new Date(String(trial!.ends_at)).toISOString()}'::timestamptz`;
      await own(ctx, {
        status: "'authenticated'",
        current_start: "null",
        current_end: "null",
        start_at: end,
        charge_at: end,
        paid_count: "0",
      });
    },
    plan: "Pro (free trial)",
    source: /^Pro trial: 14 days left/,
    nextCharge: /^₹699 on \d{1,2} \w{3} \d{4}$/,
    me: { plan: "pro-monthly" },
    says: [
      "Nothing has been charged yet",
      "Cancel before the first charge",
      "Authorised at checkout; it shows here after the first charge.",
    ],
    never: ["the period you paid for", "Cancel at end of period"],
  },
  {
    name: "a trial, then Pro bought at once and paused",
    setup: async (ctx) => {
      const started = await postForm(ctx.server, "/account/subscription", ctx.cookie, {
        intent: "start-trial",
      });
      expect(started.status).toBeLessThan(400);
      await own(ctx, {
        status: "'paused'",
        paused_at: "now()",
        paused_by: "'merchant'",
      });
    },
    plan: "Pro (monthly)",
    source: null,
    nextCharge: null,
    me: { plan: "pro-monthly" },
    says: ["Resume subscription"],
    never: ["Pro trial:", "Pro (free trial)"],
  },
  {
    name: "a grant from the operator",
    setup: async ({ server, userId }) =>
      void (await server.sql(
        `insert into entitlement_grants (user_id, plan_id, starts_at, ends_at, reason)
         values ('${userId}', 'pro-monthly', now() - interval '1 day', now() + interval '30 days', 'goodwill')`,
      )),
    plan: "Pro (monthly)",
    source: /^Given to your account until \d{1,2} \w{3} \d{4}; nothing is charged\.$/,
    nextCharge: null,
    me: { plan: "pro-monthly" },
  },
  {
    name: "a team's seat",
    setup: async (ctx) => {
      const org = `org_${ctx.userId.slice(0, 12)}`;
      await ctx.server.sql(
        `insert into organization (id, name, slug, created_at) values ('${org}', 'Kaveri Robotics', '${org}', now())`,
      );
      await ctx.server.sql(
        `insert into member (id, organization_id, user_id, role, created_at) values ('mem_${org}', '${org}', '${ctx.userId}', 'member', now())`,
      );
      await ctx.server.sql(
        `insert into team_seats (organization_id, user_id) values ('${org}', '${ctx.userId}')`,
      );
      await insertSubscription(ctx, { status: "'active'", team_id: `'${org}'`, seats: "2" });
    },
    plan: "Pro (monthly)",
    source: /^From a seat of Kaveri Robotics's subscription/,
    nextCharge: null,
    me: { plan: "pro-monthly", team: "Kaveri Robotics" },
    never: ["Pause subscription", "Cancel at end of period"],
  },
];

/** The text of the element with this `data-testid`, or null. */
function byTestId(html: string, id: string): string | null {
  const match = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(?:span|dd|p)>`).exec(html);
  return match ? textOf(match[1] ?? "") : null;
}

describe.each(engines())("every state × buyer on the account pages and /me, on $name", (engine) => {
  let server: RunningTestServer;
  let admin = "";

  beforeAll(async () => {
    ({ server, admin } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "1000" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(CASES.map((each, index) => [each.name, each, index] as const))(
    "%s",
    async (_name, each, index) => {
      const email = `state-${index}@example.com`;
      const cookie = await signUpVerified(server, { name: "Asha", email, password: PASSWORD });
      const [user] = await server.sql(`select id from "user" where email = '${email}'`);
      const ctx: Ctx = { server, userId: String(user!.id), cookie };
      await each.setup(ctx);

      const overview = await (await getWithCookies(server, "/account", cookie)).text();
      const page = await (await getWithCookies(server, "/account/subscription", cookie)).text();
      const pageWords = textOf(page);

      // The plan, the same on both pages; where it comes from, the same words on both.
      expect(byTestId(overview, "current-plan")).toBe(each.plan);
      expect(byTestId(page, "current-plan")).toBe(each.plan);
      const source = byTestId(overview, "pro-source");
      if (each.source) expect(source).toMatch(each.source);
      else expect(source).toBeNull();

      // The next charge, or none.
      const next = byTestId(page, "next-charge");
      if (each.nextCharge) expect(next).toMatch(each.nextCharge);
      else expect(next).toBeNull();

      // Nobody holding Pro is offered Pro or a trial.
      if (each.plan !== "Free")
        for (const offer of OFFERS) expect(pageWords, offer).not.toContain(offer);
      for (const words of each.says ?? []) expect(pageWords).toMatch(words);
      for (const words of each.never ?? []) expect(pageWords).not.toMatch(words);

      // The operator's customer page names the same plan (a trial as a trial).
      const operator = await (
        await getWithCookies(server, `/admin/customers/${ctx.userId}`, admin)
      ).text();
      expect(byTestId(operator, "customer-plan")).toBe(each.plan);

      // The pricing page (same HTML for all) asks /api/plan: a trial's user may still buy, and
      // only someone the account page would give a trial is offered one.
      const plan = (await (await getWithCookies(server, "/api/plan", cookie)).json()) as {
        source: string;
        mayStartTrial: boolean;
      };
      expect(plan.source === "trial").toBe(each.plan === "Pro (free trial)");
      expect(plan.mayStartTrial).toBe(index === 0);

      // The desktop app is told the same plan, and whose it is.
      const token = await signInDevice(server, cookie, `Laptop ${index}`);
      const me = await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);
      const body = (await me.json()) as { entitlement: { plan: string; team?: { name: string } } };
      expect(body.entitlement.plan).toBe(each.me.plan);
      expect(body.entitlement.team?.name).toBe(each.me.team);
    },
  );
});
