import { getSession } from "~/.server/auth/session";
import { entitlementFor } from "~/.server/billing/entitlement.server";
import type { Route } from "./+types/plan";

/**
 * GET /api/plan: the signed-in visitor's current plan id, or null. The pricing page is the same
 * HTML for everyone (cacheable); it asks this after hydration to mark the visitor's plan.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const session = await getSession(request);
  const plan = session ? (await entitlementFor(session.user.id)).plan : null;
  return Response.json(
    { plan },
    { headers: { "Cache-Control": "private, no-store", Vary: "Cookie" } },
  );
}
