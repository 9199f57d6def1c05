import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { analyticsPlanName, planById } from "~/lib/plans";
import { parseEvent, SERVER_RECORDED_EVENTS } from "./catalogue";
import { planEvents } from "./plan-events";

/** Every event that names a plan, and the builder that must make its params. */
const PLAN_EVENTS = {
  plan_select: "planSelect",
  add_to_cart: "addToCart",
  begin_checkout: "beginCheckout",
  purchase: "purchase",
  subscription_start: "subscriptionStart",
  subscription_cancel: "subscriptionCancel",
  subscription_upgrade: "subscriptionUpgrade",
  trial_start: "trialStart",
  trial_end: "trialEnd",
} as const satisfies Record<string, keyof typeof planEvents>;

/** Every plan name an event carries, whatever its field is called. */
function namesIn(params: Record<string, unknown>): unknown[] {
  const items = Array.isArray(params.items) ? (params.items as Record<string, unknown>[]) : [];
  return [
    params.plan_name,
    params.from_plan,
    params.to_plan,
    params.item_name,
    ...items.map((item) => item.item_name),
  ].filter((name) => name !== undefined);
}

describe("analytics events that name a plan", () => {
  const monthly = planById("pro-monthly");
  const yearly = planById("pro-yearly");

  it("name each plan one way in every event, and every event fits the catalogue", () => {
    for (const plan of site.plans) {
      const name = analyticsPlanName(plan.id);
      const other = plan.id === monthly.id ? yearly.id : monthly.id;
      const events = {
        plan_select: planEvents.planSelect(plan.id, "monthly"),
        add_to_cart: planEvents.addToCart(plan.id),
        begin_checkout: planEvents.beginCheckout(plan.id, plan.pricePaise),
        purchase: planEvents.purchase(plan.id, "pay_Test0001", plan.pricePaise),
        subscription_start: planEvents.subscriptionStart(plan.id),
        subscription_cancel: planEvents.subscriptionCancel(plan.id),
        subscription_upgrade: planEvents.subscriptionUpgrade(plan.id, other),
        trial_start: planEvents.trialStart(plan.id, 14),
        trial_end: planEvents.trialEnd(plan.id, 14, false),
      };
      for (const [event, params] of Object.entries(events)) {
        const parsed = parseEvent(event, params);
        expect(parsed.ok, `${event} of ${plan.id}: ${parsed.ok ? "" : parsed.error}`).toBe(true);
        const names = namesIn(params as Record<string, unknown>);
        expect(names.length, `${event} names a plan`).toBeGreaterThan(0);
        const expected =
          event === "subscription_upgrade"
            ? [name, analyticsPlanName(other)]
            : names.map(() => name);
        expect(names, `${event} of ${plan.id}`).toEqual(expected);
      }
    }
  });

  it("send plan_select with the same plan_name as the purchase that follows it", () => {
    expect(planEvents.planSelect("pro-monthly", "monthly")).toEqual({
      plan_name: "Pro (monthly)",
      plan_price: 699,
      billing_cycle: "monthly",
    });
    expect(planEvents.planSelect("pro-yearly", "monthly")).toMatchObject({
      plan_name: "Pro (yearly)",
      billing_cycle: "yearly",
    });
    expect(planEvents.subscriptionStart("pro-monthly")).toEqual({
      plan_name: "Pro (monthly)",
      plan_price: 699,
    });
    expect(planEvents.subscriptionUpgrade("pro-monthly", "pro-yearly")).toEqual({
      from_plan: "Pro (monthly)",
      to_plan: "Pro (yearly)",
      new_price: 6999,
    });
    expect(planEvents.purchase("pro-yearly", "pay_Test0002", 699_900)).toEqual({
      currency: "INR",
      value: 6999,
      transaction_id: "pay_Test0002",
      items: [{ item_id: "pro-yearly", item_name: "Pro (yearly)", price: 6999, quantity: 1 }],
    });
  });

  it("are built only by planEvents: no page names a plan in an event by itself", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    // Browser events only: server-only code (mail templates have a `to_plan` of their own) never
    // calls track().
    const sources = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .filter((file) => !file.split(path.sep).includes(".server"))
      .map((file) => path.join(root, file));
    const allowed = new Set([
      path.join(root, "lib/analytics/catalogue.ts"),
      path.join(root, "lib/analytics/plan-events.ts"),
    ]);
    const tracked: string[] = [];
    const problems: string[] = [];
    for (const file of sources) {
      const text = fs.readFileSync(file, "utf8");
      const where = path.relative(root, file);
      if (!allowed.has(file))
        for (const match of text.matchAll(/\b(plan_name|from_plan|to_plan|item_name)\s*:/g))
          problems.push(`${where}: sets ${match[1]} itself`);
      for (const match of text.matchAll(/\btrack\(\s*"(\w+)"\s*,\s*([\w.]*)/g)) {
        const [, event = "", argument] = match;
        if (!Object.hasOwn(PLAN_EVENTS, event)) continue;
        const builder = PLAN_EVENTS[event as keyof typeof PLAN_EVENTS];
        tracked.push(event);
        if (argument !== `planEvents.${builder}`)
          problems.push(`${where}: track("${event}", …) without planEvents.${builder}`);
      }
    }
    expect(problems).toEqual([]);
    // The scan found the pages' events (it would pass vacuously if it read nothing); the events
    // only the server records are never tracked by a page.
    expect(new Set(tracked)).toEqual(
      new Set(
        Object.keys(PLAN_EVENTS).filter(
          (event) => !(SERVER_RECORDED_EVENTS as readonly string[]).includes(event),
        ),
      ),
    );
    // The server builds its own with planEvents too.
    expect(fs.readFileSync(path.join(root, ".server/trials/end.server.ts"), "utf8")).toContain(
      'parseEvent("trial_end", planEvents.trialEnd(',
    );
  });
});
