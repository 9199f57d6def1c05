import { desktopMe } from "~/.server/desktop/me.server";
import { deviceLimitAnswer, invalidTokenResponse, json } from "~/.server/desktop/http.server";
import type { RouteHandle } from "~/lib/route-handle";
import type { Route } from "./+types/me";

/**
 * Every installed app calls it at launch and periodically: answered before express and React
 * Router by the same function (server/fast-answers.ts, decision 0032), with the desktop API's
 * rate limit of the layout above counted there the same way.
 */
export const handle: RouteHandle = { fastAnswer: "desktop-me" };

/**
 * GET /api/desktop/me: who is signed in, what they may use, a signed licence for offline use, and
 * whether an update is available or required for the version the app reports (`X-App-Version`,
 * else the version it signed in with).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const outcome = await desktopMe({
    authorization: request.headers.get("authorization"),
    appVersion: request.headers.get("x-app-version"),
  });
  if (outcome.status === 200) return json(outcome.body);
  if (outcome.status === 403) {
    const refusal = deviceLimitAnswer(outcome.deviceLimit);
    return Response.json(refusal.body, { status: refusal.status, headers: refusal.headers });
  }
  return invalidTokenResponse();
}
