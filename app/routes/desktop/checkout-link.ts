import { checkoutLinkFor, checkoutLinkSchema } from "~/.server/desktop/checkout-link.server";
import {
  json,
  methodNotAllowed,
  oauthError,
  readBody,
  requireDevice,
} from "~/.server/desktop/http.server";
import type { Route } from "./+types/checkout-link";

/**
 * POST /api/desktop/checkout-link (issue 57, point 4): a single-use link (2 minutes) that opens
 * the browser signed in on the page for the errand the app asks for: `buy` (a plan), `seats` (a
 * team's, for its owner or billing manager), `update-payment-method` or `resume`. The app then
 * waits on GET /api/desktop/wait, or its next check-in, to see the change.
 */
export async function action({ request }: Route.ActionArgs) {
  const found = await requireDevice(request);
  if (found instanceof Response) return found;
  const body = await readBody(request, checkoutLinkSchema);
  if (body instanceof Response) return body;
  const link = await checkoutLinkFor({ userId: found.user.id, deviceId: found.device.id }, body);
  if (!link.ok) return oauthError(link.status, link.error, link.description);
  return json({ url: link.url, expires_in: link.expiresIn });
}

export const loader = () => methodNotAllowed("POST");
