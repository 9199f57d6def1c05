import { issueWebSessionToken, WEB_SESSION_TTL_MS } from "~/.server/desktop/handoff.server";
import { json, methodNotAllowed, requireDevice } from "~/.server/desktop/http.server";
import type { Route } from "./+types/web-session-token";

/**
 * POST /api/desktop/web-session-token: a single-use token (2 minutes) with which the app opens
 * the site already signed in: /login-via?token=<t>&next=/account.
 */
export async function action({ request }: Route.ActionArgs) {
  const found = await requireDevice(request);
  if (found instanceof Response) return found;
  const token = await issueWebSessionToken(found.user.id, found.device.id);
  return json({ token, expires_in: WEB_SESSION_TTL_MS / 1000 });
}

export const loader = () => methodNotAllowed("POST");
