import { asc, gt } from "drizzle-orm";
import { site } from "~/config/site";
import { planLabel } from "~/lib/plans";
import { entitlementFor } from "../billing/entitlement.server";
import { type Database, db as defaultDb } from "../db";
import { user as users } from "../db/schema";

const BATCH = 500;

export interface PlanShare {
  plan: string;
  label: string;
  users: number;
}

/** Every configured plan with its count (zero included), then any plan the config does not know. */
export function planShares(counts: ReadonlyMap<string, number>): PlanShare[] {
  const known = site.plans.map((plan) => ({
    plan: plan.id,
    label: planLabel(plan),
    users: counts.get(plan.id) ?? 0,
  }));
  const configured = new Set<string>(site.plans.map((plan) => plan.id));
  const unknown = [...counts]
    .filter(([plan]) => !configured.has(plan))
    .map(([plan, users]) => ({ plan, label: plan, users }));
  return [...known, ...unknown];
}

/**
 * How many users each plan has, asking entitlementFor() for every user: it is the one answer to
 * "what may this user use", and billing replaces its body, so this page follows without change.
 * Users are read in keyset batches so memory stays flat however many there are.
 */
export async function planDistribution(
  database: Database = defaultDb(),
  batchSize: number = BATCH,
): Promise<PlanShare[]> {
  const counts = new Map<string, number>();
  let after: string | null = null;
  for (;;) {
    const batch: { id: string }[] = await database
      .select({ id: users.id })
      .from(users)
      .where(after === null ? undefined : gt(users.id, after))
      .orderBy(asc(users.id))
      .limit(batchSize);
    const entitlements = await Promise.all(
      batch.map((row) => entitlementFor(row.id, { database })),
    );
    for (const entitlement of entitlements)
      counts.set(entitlement.plan, (counts.get(entitlement.plan) ?? 0) + 1);
    if (batch.length < batchSize) break;
    after = batch.at(-1)?.id ?? null;
  }
  return planShares(counts);
}
