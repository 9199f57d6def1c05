import { useEffect, useState } from "react";
import { useAuth } from "~/lib/auth-state";
import { http } from "~/lib/http";
import type { PlanSourceKind } from "~/lib/pro-source";

/** What /api/plan says of the signed-in visitor. */
export interface CurrentPlan {
  plan: string;
  /** Where the plan comes from: a trial's user may still buy; a subscriber manages theirs. */
  source: PlanSourceKind;
  /** Whether the account page would start a free trial for them. */
  mayStartTrial: boolean;
}

/**
 * The signed-in visitor's plan (null when anonymous or not known yet). The page's HTML is the
 * same for everyone; this is asked for after hydration, only when someone is signed in.
 */
export function useCurrentPlan(): CurrentPlan | null {
  const { state } = useAuth();
  const [plan, setPlan] = useState<CurrentPlan | null>(null);
  useEffect(() => {
    if (state.status !== "signed-in") return;
    const controller = new AbortController();
    http("/api/plan", { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<CurrentPlan>) : null))
      .then((body) => setPlan(body && body.plan !== null ? body : null))
      .catch(() => {});
    return () => controller.abort();
  }, [state.status]);
  return state.status === "signed-in" ? plan : null;
}
