/**
 * The operator's cancellation flows (issue 59, point 1): one per paid plan, each with at most one
 * offer. Saved from /admin/retention with the audit log; read by the cancel page.
 */
import { eq } from "drizzle-orm";
import { type CancelOfferKind, isPauseCycles } from "~/lib/cancel-flow";
import { type PaidPlanId, PAID_PLAN_IDS, planById, switchTarget } from "~/lib/plans";
import type { Session } from "../auth/session-shape";
import { audit } from "../admin/audit.server";
import { db as defaultDb, type Database, type Executor } from "../db";
import { cancelFlows, coupons } from "../db/schema";
import { AppError } from "../http/errors";

export interface CancelFlow {
  planId: PaidPlanId;
  offer: CancelOfferKind | null;
  pauseCycles: number | null;
  coupon: { id: string; code: string } | null;
}

/** Every paid plan's flow; a plan never set has none. */
export async function cancelFlowsByPlan(
  executor: Executor = defaultDb(),
): Promise<Record<PaidPlanId, CancelFlow>> {
  const rows = await executor
    .select({ flow: cancelFlows, couponCode: coupons.code })
    .from(cancelFlows)
    .leftJoin(coupons, eq(coupons.id, cancelFlows.couponId));
  const flows = Object.fromEntries(
    PAID_PLAN_IDS.map((planId) => [
      planId,
      { planId, offer: null, pauseCycles: null, coupon: null } satisfies CancelFlow,
    ]),
  ) as Record<PaidPlanId, CancelFlow>;
  for (const { flow, couponCode } of rows) {
    const planId = PAID_PLAN_IDS.find((id) => id === flow.planId);
    if (!planId) continue;
    flows[planId] = {
      planId,
      offer: flow.offer,
      pauseCycles: flow.pauseCycles,
      coupon: flow.couponId && couponCode ? { id: flow.couponId, code: couponCode } : null,
    };
  }
  return flows;
}

export interface CancelFlowInput {
  planId: PaidPlanId;
  offer: CancelOfferKind | null;
  pauseCycles?: number | null;
  couponCode?: string | null;
}

/**
 * Sets a plan's flow. Refused with the field's reason: a pause without 1–3 cycles, a move to the
 * yearly cycle for a plan that is not monthly, a discount without a coupon for existing customers
 * that applies to the plan.
 */
export async function saveCancelFlow(
  session: Session,
  input: CancelFlowInput,
  database: Database = defaultDb(),
): Promise<CancelFlow> {
  const plan = planById(input.planId);
  let pauseCycles: number | null = null;
  let coupon: { id: string; code: string } | null = null;
  switch (input.offer) {
    case null:
      break;
    case "pause":
      if (!isPauseCycles(input.pauseCycles))
        throw new AppError("invalid", "Choose a pause of 1, 2 or 3 billing cycles.", {
          field: "pauseCycles",
        });
      pauseCycles = input.pauseCycles;
      break;
    case "yearly":
      if (plan.billingCycle !== "monthly" || !switchTarget(plan))
        throw new AppError("invalid", "Only a monthly plan can offer the yearly cycle.", {
          field: "offer",
        });
      break;
    case "discount": {
      const code = (input.couponCode ?? "").trim().toUpperCase();
      const [row] = code ? await database.select().from(coupons).where(eq(coupons.code, code)) : [];
      if (!row)
        throw new AppError("invalid", "Choose one of your coupons.", { field: "couponCode" });
      if (row.firstPurchaseOnly)
        throw new AppError(
          "invalid",
          `${row.code} is for first purchases only, and a customer who cancels has paid before: choose a coupon for existing customers.`,
          { field: "couponCode" },
        );
      if (row.planIds.length > 0 && !row.planIds.includes(plan.id))
        throw new AppError("invalid", `${row.code} is not for this plan.`, {
          field: "couponCode",
        });
      if (row.disabledAt)
        throw new AppError("invalid", `${row.code} is disabled.`, { field: "couponCode" });
      coupon = { id: row.id, code: row.code };
      break;
    }
  }
  const values = {
    planId: input.planId,
    offer: input.offer,
    pauseCycles,
    couponId: coupon?.id ?? null,
    updatedAt: new Date(),
  };
  await database.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(cancelFlows)
      .where(eq(cancelFlows.planId, input.planId))
      .for("update");
    await tx
      .insert(cancelFlows)
      .values(values)
      .onConflictDoUpdate({ target: cancelFlows.planId, set: values });
    await audit(tx, session, {
      action: "cancel-flow.save",
      targetUserId: null,
      target: input.planId,
      before: before ?? null,
      after: { offer: input.offer, pauseCycles, coupon: coupon?.code ?? null },
    });
  });
  return { planId: input.planId, offer: input.offer, pauseCycles, coupon };
}
