/** Our plans at Razorpay: created once per plan and price, the mapping kept in provider_plans. */
import { and, eq } from "drizzle-orm";
import { site } from "~/config/site";
import type { Currency, ForeignCurrency } from "~/lib/money";
import { isPaidPlanId, type PaidPlanId, planById, planLabel } from "~/lib/plans";
import { type Database, db as defaultDb, type Executor } from "../db";
import { providerPlans } from "../db/schema";
import type { RazorpayClient } from "./razorpay/client";
import { razorpay } from "./provider.server";
import { sellingAbroad } from "./selling-abroad.server";

export interface PlanSync {
  planId: PaidPlanId;
  currency: Currency;
  providerPlanId: string;
  created: boolean;
}

/** A price in one currency: `amount` in its minor unit. */
export interface PlanPrice {
  currency: Currency;
  amount: number;
}

/**
 * The Razorpay plan that sells `planId` at its configured rupee price (or at `price`: a team's
 * seat at its volume tier, charged × the subscription's quantity, or a price abroad in its own
 * currency), created on first use. A price change in site.ts makes a new Razorpay plan (plans are
 * immutable there); subscriptions already running keep their old one.
 */
export async function providerPlanFor(
  planId: PaidPlanId,
  database: Database = defaultDb(),
  client: RazorpayClient = razorpay(),
  price?: PlanPrice,
): Promise<PlanSync> {
  const plan = planById(planId);
  const { currency, amount } = price ?? { currency: "INR", amount: plan.pricePaise };
  const find = () =>
    database
      .select()
      .from(providerPlans)
      .where(
        and(
          eq(providerPlans.planId, planId),
          eq(providerPlans.currency, currency),
          eq(providerPlans.amount, amount),
        ),
      );
  const [known] = await find();
  if (known) return { planId, currency, providerPlanId: known.providerPlanId, created: false };

  const created = await client.createPlan({
    period: plan.billingCycle === "yearly" ? "yearly" : "monthly",
    interval: 1,
    item: {
      name: `${site.product.name} ${planLabel(plan)}`,
      amount,
      currency,
      // A price abroad carries no Indian tax: an export of services is zero-rated (decision 0060).
      description:
        currency === "INR" && site.pricing.pricesIncludeGst
          ? `${planLabel(plan)}, ${site.pricing.gstRatePercent}% GST included`
          : planLabel(plan),
    },
    notes: { plan_id: planId },
  });
  // Two requests racing here both create a Razorpay plan; the first mapping stored wins and the
  // other plan is simply never used.
  await database
    .insert(providerPlans)
    .values({ planId, currency, amount, providerPlanId: created.id })
    .onConflictDoNothing();
  const [stored] = await find();
  if (!stored) throw new Error(`provider plan for ${planId} was not stored`);
  return {
    planId,
    currency,
    providerPlanId: stored.providerPlanId,
    created: stored.providerPlanId === created.id,
  };
}

/**
 * `npm run billing:sync-plans`: every paid plan exists at Razorpay in rupees and in each currency
 * sold abroad (`sellingAbroad()`, decision 0060), and the keys work. A currency the account cannot
 * charge in (international payments not enabled) fails here, with Razorpay's words and the plan
 * and currency named: the operator sees it now, not a buyer at checkout.
 */
export async function syncPlans(
  database: Database = defaultDb(),
  client: RazorpayClient = razorpay(),
  abroad: readonly ForeignCurrency[] = currenciesSoldAbroad(),
): Promise<PlanSync[]> {
  const results: PlanSync[] = [];
  for (const plan of site.plans) {
    if (!isPaidPlanId(plan.id)) continue;
    const prices: PlanPrice[] = [
      { currency: "INR", amount: plan.pricePaise },
      ...abroad.map((currency) => ({ currency, amount: plan.pricesAbroad[currency] })),
    ];
    for (const price of prices) {
      let result: PlanSync;
      try {
        result = await providerPlanFor(plan.id, database, client, price);
        // Fetching proves the plan exists under these keys (a mapping from test keys would not).
        await client.fetchPlan(result.providerPlanId);
      } catch (error) {
        const words = error instanceof Error ? error.message : String(error);
        throw new Error(`${plan.id} in ${price.currency}: ${words}`, { cause: error });
      }
      results.push(result);
    }
  }
  return results;
}

function currenciesSoldAbroad(): readonly ForeignCurrency[] {
  const abroad = sellingAbroad();
  return abroad.open ? abroad.currencies : [];
}

/**
 * What a Razorpay plan charges per unit (a seat, for a team), from the mapping, in paise: null
 * for a plan unknown here or one that charges in another currency (no rupee amount to give).
 */
export async function providerPlanAmount(
  providerPlanId: string,
  database: Executor = defaultDb(),
): Promise<number | null> {
  const [row] = await database
    .select({ amount: providerPlans.amount, currency: providerPlans.currency })
    .from(providerPlans)
    .where(eq(providerPlans.providerPlanId, providerPlanId));
  return row && row.currency === "INR" ? row.amount : null;
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
