import { site } from "~/config/site";

export interface Entitlement {
  plan: string;
  status: "active";
  features: string[];
  device_limit: number;
  /** null: does not expire (the free plan). */
  expires_at: string | null;
}

/**
 * What a user may use. Every account is on the free plan until billing exists; billing replaces
 * this function's body and nothing that calls it changes.
 */
export async function entitlementFor(_userId: string): Promise<Entitlement> {
  const plan = site.plans.find((candidate) => candidate.id === "free");
  if (!plan) throw new Error("site config has no free plan");
  return {
    plan: plan.id,
    status: "active",
    features: [...plan.features],
    device_limit: plan.deviceLimit,
    expires_at: null,
  };
}
