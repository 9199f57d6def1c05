import { getSession } from "~/.server/auth/session";
import { personBuyer } from "~/.server/billing/buyer";
import { entitlementFor } from "~/.server/billing/entitlement.server";
import { billingOverview } from "~/.server/billing/overview.server";
import { planShownFor } from "~/.server/billing/plan-shown.server";
import { trialState } from "~/.server/trials/trials.server";
import type { Route } from "./+types/plan";

/**
 * GET /api/plan: the signed-in visitor's current plan id (or null), where it comes from, and
 * whether they may start a free trial. The pricing page is the same HTML for everyone
 * (cacheable); it asks this after hydration, so it offers a trial only to whom the account page
 * would give one, and lets a trial's user buy (with the page's coupon) instead of sending them
 * to manage a subscription they do not have (issue 54).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const session = await getSession(request);
  const headers = { "Cache-Control": "private, no-store", Vary: "Cookie" };
  if (!session)
    return Response.json({ plan: null, source: null, mayStartTrial: true }, { headers });
  const now = new Date();
  const [entitlement, overview, trial] = await Promise.all([
    entitlementFor(session.user.id, { now }),
    billingOverview(personBuyer(session.user.id)),
    trialState(session.user, { now }),
  ]);
  const shown = planShownFor({
    entitlement,
    overview,
    trialEndsAt: trial.kind === "running" ? trial.trial.endsAt : null,
    now,
  });
  return Response.json(
    { plan: entitlement.plan, source: shown.kind, mayStartTrial: trial.kind === "eligible" },
    { headers },
  );
}
