import { recordUsageWithFeatureUse } from "~/.server/analytics/feature-use.server";
import { usageSchema } from "~/.server/desktop/devices.server";
import { json, methodNotAllowed, readBody, requireDevice } from "~/.server/desktop/http.server";
import type { Route } from "./+types/usage";

/**
 * POST /api/desktop/usage: feature usage from the app; resending an event id changes nothing.
 * Each newly stored event is also a `feature_use` analytics event (the cockpit reads those).
 */
export async function action({ request }: Route.ActionArgs) {
  const found = await requireDevice(request);
  if (found instanceof Response) return found;
  const body = await readBody(request, usageSchema);
  if (body instanceof Response) return body;
  const accepted = await recordUsageWithFeatureUse(found.device, body);
  return json({ received: body.events.length, stored: accepted });
}

export const loader = () => methodNotAllowed("POST");
