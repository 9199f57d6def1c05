/** Our plans at Razorpay: created once per plan and price, the mapping kept in provider_plans. */
import { and, eq } from "drizzle-orm";
import { site } from "~/config/site";
import { isPaidPlanId, type PaidPlanId, planById, planLabel } from "~/lib/plans";
import { type Database, db as defaultDb, type Executor } from "../db";
import { providerPlans } from "../db/schema";
import type { RazorpayClient } from "./razorpay/client";
import { razorpay } from "./provider.server";

export interface PlanSync {
  planId: PaidPlanId;
  providerPlanId: string;
  created: boolean;
}

/**
 * The Razorpay plan that sells `planId` at its configured price (or at `amountPaise`: a team's
 * seat at its volume tier, charged × the subscription's quantity), created on first use. A price
 * change in site.ts makes a new Razorpay plan (plans are immutable there); subscriptions already
 * running keep their old one.
 */
export async function providerPlanFor(
  planId: PaidPlanId,
  database: Database = defaultDb(),
  client: RazorpayClient = razorpay(),
  amountPaise?: number,
): Promise<PlanSync> {
  const plan = planById(planId);
  const amount = amountPaise ?? plan.pricePaise;
  const find = () =>
    database
      .select()
      .from(providerPlans)
      .where(and(eq(providerPlans.planId, planId), eq(providerPlans.amountPaise, amount)));
  const [known] = await find();
  if (known) return { planId, providerPlanId: known.providerPlanId, created: false };

  const created = await client.createPlan({
    period: plan.billingCycle === "yearly" ? "yearly" : "monthly",
    interval: 1,
    item: {
      name: `${site.product.name} ${planLabel(plan)}`,
      amount,
      currency: "INR",
      description: site.pricing.pricesIncludeGst
        ? `${planLabel(plan)}, ${site.pricing.gstRatePercent}% GST included`
        : planLabel(plan),
    },
    notes: { plan_id: planId },
  });
  // Two requests racing here both create a Razorpay plan; the first mapping stored wins and the
  // other plan is simply never used.
  await database
    .insert(providerPlans)
    .values({ planId, amountPaise: amount, providerPlanId: created.id })
    .onConflictDoNothing();
  const [stored] = await find();
  if (!stored) throw new Error(`provider plan for ${planId} was not stored`);
  return {
    planId,
    providerPlanId: stored.providerPlanId,
    created: stored.providerPlanId === created.id,
  };
}

/** `npm run billing:sync-plans`: every paid plan exists at Razorpay and the keys work. */
export async function syncPlans(
  database: Database = defaultDb(),
  client: RazorpayClient = razorpay(),
): Promise<PlanSync[]> {
  const results: PlanSync[] = [];
  for (const plan of site.plans) {
    if (!isPaidPlanId(plan.id)) continue;
    const result = await providerPlanFor(plan.id, database, client);
    // Fetching proves the plan exists under these keys (a mapping from test keys would not).
    await client.fetchPlan(result.providerPlanId);
    results.push(result);
  }
  return results;
}

/** What a Razorpay plan charges per unit (a seat, for a team), from the mapping. */
export async function providerPlanAmount(
  providerPlanId: string,
  database: Executor = defaultDb(),
): Promise<number | null> {
  const [row] = await database
    .select({ amountPaise: providerPlans.amountPaise })
    .from(providerPlans)
    .where(eq(providerPlans.providerPlanId, providerPlanId));
  return row?.amountPaise ?? null;
}

/** Our plan id for a Razorpay plan id, from the mapping. */
export async function planIdForProviderPlan(
  providerPlanId: string,
  database: Database = defaultDb(),
): Promise<PaidPlanId | null> {
  const [row] = await database
    .select({ planId: providerPlans.planId })
    .from(providerPlans)
    .where(eq(providerPlans.providerPlanId, providerPlanId));
  return row && isPaidPlanId(row.planId) ? row.planId : null;
}
