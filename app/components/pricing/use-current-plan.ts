import { useEffect, useState } from "react";
import { useAuth } from "~/lib/auth-state";
import { http } from "~/lib/http";

/**
 * The signed-in visitor's plan id (null when anonymous or not known yet). The page's HTML is the
 * same for everyone; this is asked for after hydration, only when someone is signed in.
 */
export function useCurrentPlan(): string | null {
  const { state } = useAuth();
  const [plan, setPlan] = useState<string | null>(null);
  useEffect(() => {
    if (state.status !== "signed-in") return;
    const controller = new AbortController();
    http("/api/plan", { signal: controller.signal })
      .then((response) =>
        response.ok ? (response.json() as Promise<{ plan: string | null }>) : null,
      )
      .then((body) => setPlan(body?.plan ?? null))
      .catch(() => {});
    return () => controller.abort();
  }, [state.status]);
  return state.status === "signed-in" ? plan : null;
}
