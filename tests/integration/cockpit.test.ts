/**
 * Issue 24, point 1 through HTTP on both databases: events for a known number of visitors at each
 * funnel step, sent to /api/events with consent, plus payments made through the sandbox, read
 * back exactly on /admin/analytics; a customer gets 403; a visitor without consent adds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BROWSER_HEADERS,
  getWithCookies,
  postForm,
  postJson,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import { buyThroughSandbox, sandboxPay, startCheckout } from "../support/billing";
import { eventually } from "../support/eventually";
import { sectionText, textOf } from "../support/pages";
import { signInDevice } from "../support/desktop";
import { engines } from "../support/engines";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "cockpit-test-password-1";

describe.each(engines())("the operator cockpit on $name", (engine) => {
  let server: RunningTestServer;
  let boss: string;

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "100" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A browser: the analytics cookie the site gave it, once it has one. */
  interface Visitor {
    cookie: string;
  }
  const newVisitor = (): Visitor => ({ cookie: "" });
  const cookiesOf = (...parts: string[]) => parts.filter(Boolean).join("; ");
  const send = async (
    visitor: Visitor,
    events: { name: string; params: unknown }[],
    consent = true,
  ) => {
    const response = await postJson(
      server,
      "/api/events",
      { events },
      consent ? { cookie: cookiesOf("consent=granted", visitor.cookie) } : {},
    );
    const issued = /pinout_aid=[^;]+/.exec(response.headers.getSetCookie().join("\n"));
    if (issued) visitor.cookie = issued[0];
    return response;
  };
  const cockpit = async (query = "?days=7") => {
    const response = await getWithCookies(server, `/admin/analytics${query}`, boss);
    expect(response.status).toBe(200);
    return textOf(await response.text());
  };
  /** Buys a plan as the checkout page does, from the visitor's browser (its cookies). */
  const buy = async (email: string, plan: string, visitor: Visitor, consent: boolean) => {
    const cookie = await signUpVerified(server, { name: email, email, password: PASSWORD });
    const started = await startCheckout(
      server,
      cookiesOf(cookie, consent ? "consent=granted" : "", visitor.cookie),
      plan,
    );
    expect(started.subscriptionId, started.body).not.toBeNull();
    const paid = await sandboxPay(server, started.subscriptionId!, "success");
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
  };

  it("counts visitors at each step and payers from our payments, per billing cycle", async () => {
    const visitors = Array.from({ length: 6 }, newVisitor);
    const planSelect = (cycle: "monthly" | "yearly") => ({
      name: "plan_select",
      params: {
        plan_name: cycle === "monthly" ? "Pro (monthly)" : "Pro (yearly)",
        plan_price: cycle === "monthly" ? 699 : 6999,
        billing_cycle: cycle,
      },
    });
    const beginCheckout = (cycle: "monthly" | "yearly") => ({
      name: "begin_checkout",
      params: {
        currency: "INR",
        value: cycle === "monthly" ? 699 : 6999,
        plan_name: cycle === "monthly" ? "Pro (monthly)" : "Pro (yearly)",
      },
    });
    const viewPricing = { name: "view_pricing", params: { billing_cycle: "monthly" } };
    const signUp = { name: "form_submit", params: { form_name: "sign_up", success: true } };
    // 6 view pricing (one twice); 4 choose (3 monthly, 1 yearly); 3 begin checkout; 2 sign up.
    const journeys = [
      [viewPricing, viewPricing, planSelect("monthly"), beginCheckout("monthly"), signUp],
      [viewPricing, planSelect("monthly"), beginCheckout("monthly")],
      [viewPricing, planSelect("yearly"), beginCheckout("yearly"), signUp],
      [viewPricing, planSelect("monthly")],
      [viewPricing],
      [viewPricing],
    ];
    for (const [index, events] of journeys.entries())
      expect((await send(visitors[index]!, events)).status).toBe(200);
    // Beginning checkout without having viewed pricing is not in this funnel.
    expect((await send(newVisitor(), [beginCheckout("monthly")])).status).toBe(200);

    // Visitors 1 (monthly) and 3 (yearly) pay; a third buyer pays without analytics consent,
    // though their browser carried an id (the server keeps it only with the consent cookie).
    await buy("one@example.com", "pro-monthly", visitors[0]!, true);
    await buy("three@example.com", "pro-yearly", visitors[2]!, true);
    await buy("private@example.com", "pro-monthly", visitors[3]!, false);

    const text = await eventually(
      async () => {
        const page = await cockpit();
        // The sections are read in parallel, on PostgreSQL on separate connections: one may see
        // a payment recorded a moment before another does, so wait until every section has all.
        const all =
          /Paid 2 66\.7% 33\.3%/.test(page) &&
          /New subscriptions paid 3 /.test(page) &&
          /₹1,981\.25 3 ₹1,981\.25 /.test(page);
        return all ? page : undefined;
      },
      30_000,
      "two attributed payments and three new subscriptions on the cockpit",
    );
    expect(text).toMatch(/Viewed pricing 6 — —/);
    expect(text).toMatch(/Chose a plan 4 66\.7% 66\.7%/);
    expect(text).toMatch(/Began checkout 3 75\.0% 50\.0%/);
    expect(text).toMatch(/Paid 2 66\.7% 33\.3%/);
    expect(text).toMatch(/Monthly 3 2 1 /);
    expect(text).toMatch(/Yearly 1 1 1 /);
    expect(text).toMatch(/Signed up on the way 2 /);
    expect(text).toMatch(/New subscriptions paid 3 2 of them in the funnel/);
    // Revenue from the same payments: ₹699 + ₹6,999 ÷ 12 + ₹699 = ₹1,981.25 of MRR, 3 new.
    expect(text).toMatch(/₹1,981\.25 3 ₹1,981\.25 ₹0 ₹0 ₹0 ₹0/);
  });

  it("adds nothing for a visitor without consent", async () => {
    const before = await cockpit();
    const refused = await send(newVisitor(), [{ name: "view_pricing", params: {} }], false);
    expect(refused.status).toBe(403);
    expect(await cockpit()).toBe(before);
  });

  it("is for administrators only", async () => {
    const customer = await signUpVerified(server, {
      name: "Customer",
      email: "customer@example.com",
      password: PASSWORD,
    });
    expect((await getWithCookies(server, "/admin/analytics", customer)).status).toBe(403);
    expect((await getWithCookies(server, "/admin/analytics.data", customer)).status).toBe(403);
    const anonymous = await fetch(`${server.url}/admin/analytics`, {
      redirect: "manual",
      headers: BROWSER_HEADERS,
    });
    expect([302, 303]).toContain(anonymous.status);
  });

  it("counts free trials by the week they started: used the app, paid, still on trial", async () => {
    const trials = async () =>
      sectionText(
        await (await getWithCookies(server, "/admin/analytics?days=7", boss)).text(),
        "trials",
      );
    expect(await trials()).toContain("No trial started in this period.");
    const tryPro = async (name: string) => {
      const cookie = await signUpVerified(server, {
        name,
        email: `${name.toLowerCase()}@example.com`,
        password: PASSWORD,
      });
      const started = await postForm(server, "/account/subscription", cookie, {
        intent: "start-trial",
      });
      expect(started.status).toBe(200);
      return cookie;
    };
    await tryPro("Looker");
    await signInDevice(server, await tryPro("User"), "User's PC");
    // The trial already shows Pro: the purchase is in once Razorpay's payment is recorded.
    await buyThroughSandbox(server, await tryPro("Buyer"));
    await eventually(
      async () =>
        (
          await server.sql(
            `select 1 from payments p join "user" u on u.id = p.user_id where u.email = 'buyer@example.com' and p.status = 'captured'`,
          )
        ).length === 1,
      20_000,
      "the buyer's payment",
    );
    // Three started; one used the app; one paid; two still on trial (the buyer's has converted).
    const text = await trials();
    expect(text).toMatch(/Week of Started Used the app Paid Still on trial/);
    expect(text).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4} \d+ \d+ \(/);
    expect(text).toContain("All weeks 3 1 (33.3%) 1 (33.3%) 2");
  });

  it("says what was wrong with a period it cannot read", async () => {
    const text = await cockpit("?from=2026-02-30&to=2026-03-01");
    expect(text).toMatch(
      /Days are written as YYYY-MM-DD, e\.g\. 2026-11-01\. Showing the last 30 days\./,
    );
  });
});
