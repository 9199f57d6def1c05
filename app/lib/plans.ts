/**
 * The one plans module: lookup, labels and prices of the plans configured in site.ts.
 * Browser-safe (the pricing page and the account pages render with it).
 */
import { type BillingCycle, type Plan, type PlanId, site } from "~/config/site";
import { type Currency, formatMoney } from "./money";

export type { BillingCycle, Plan, PlanId };
export type PaidPlanId = Exclude<PlanId, "free">;

export const PAID_PLAN_IDS = ["pro-monthly", "pro-yearly"] as const satisfies readonly PaidPlanId[];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && site.plans.some((plan) => plan.id === value);
}

export function isPaidPlanId(value: unknown): value is PaidPlanId {
  return (PAID_PLAN_IDS as readonly unknown[]).includes(value);
}

export function findPlan(id: string): Plan | undefined {
  return site.plans.find((plan) => plan.id === id);
}

/** A plan the code names by id; a missing one is a configuration error, caught by tests. */
export function planById(id: PlanId): Plan {
  const plan = findPlan(id);
  if (!plan) throw new Error(`site config has no plan "${id}"`);
  return plan;
}

export const freePlan = (): Plan => planById("free");

/** The paid plan billed every `cycle`. */
export function paidPlanFor(cycle: BillingCycle): Plan {
  const plan = site.plans.find(
    (candidate) => candidate.id !== "free" && candidate.billingCycle === cycle,
  );
  if (!plan) throw new Error(`no paid plan billed ${cycle} in site config`);
  return plan;
}

/** "Pro (monthly)", "Free"; an id the config does not know is shown as it is. */
export function planLabel(plan: Plan | string): string {
  const found = typeof plan === "string" ? findPlan(plan) : plan;
  if (!found) return String(plan);
  return found.billingCycle ? `${found.name} (${found.billingCycle})` : found.name;
}

/**
 * A plan's name in analytics events (`plan_name`, `from_plan`, `to_plan`, `item_name`): one name
 * per plan in every event, its label, so monthly and yearly are told apart ("Pro (monthly)").
 * Events that name a plan are built in `app/lib/analytics/plan-events.ts`, never by a page.
 */
export function analyticsPlanName(plan: Plan | string): string {
  return planLabel(plan);
}

const PER = { monthly: "month", yearly: "year" } as const;

/** "₹699 / month"; "₹0" for the free plan. */
export function planPriceLabel(plan: Plan, currency: Currency = "INR"): string {
  return plan.billingCycle
    ? `${formatMoney(planPriceIn(plan, currency), currency)} / ${PER[plan.billingCycle]}`
    : formatMoney(0, currency);
}

/**
 * A plan's price in a currency, in its minor unit: the rupee price as configured, or its price
 * abroad (issue 56: set per currency in site.ts, never converted).
 */
export function planPriceIn(plan: Plan, currency: Currency): number {
  return currency === "INR" ? plan.pricePaise : plan.pricesAbroad[currency];
}

/** What one subscriber of the plan is worth per month, in paise (yearly ÷ 12, rounded): MRR. */
export function monthlyValuePaise(plan: Plan): number {
  if (!plan.billingCycle) return 0;
  return plan.billingCycle === "yearly" ? Math.round(plan.pricePaise / 12) : plan.pricePaise;
}

/** The other billing cycle's paid plan, for switching monthly ↔ yearly. */
export function switchTarget(plan: Plan): Plan | undefined {
  if (!plan.billingCycle) return undefined;
  return paidPlanFor(plan.billingCycle === "monthly" ? "yearly" : "monthly");
}

/** The paid plan a sign-in link is on its way to (`next=/checkout?plan=pro-yearly`), if any. */
export function planOfNext(next: string): Plan | undefined {
  const url = new URL(next, "http://site.invalid");
  const plan = url.searchParams.get("plan");
  return url.pathname === "/checkout" && isPaidPlanId(plan) ? planById(plan) : undefined;
}
