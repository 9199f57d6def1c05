import { desktopMe } from "~/.server/desktop/me.server";
import {
  checkInRefusal,
  invalidTokenResponse,
  json,
  methodNotAllowed,
} from "~/.server/desktop/http.server";
import { env } from "~/.server/env";
import type { Route } from "./+types/heartbeat";

/**
 * POST /api/desktop/heartbeat (issue 57): a running app checks in every `check_in.interval_seconds`
 * with its access token. The answer is `/me`'s (the current entitlement, licence and update), so a
 * purchase, a refund or a seat change reaches the app now. A machine silent past
 * `check_in.silent_after_seconds` lost its slot; checking in revives it while a slot is free, and
 * is refused with words naming the machines in use while none is.
 */
export async function action({ request }: Route.ActionArgs) {
  const outcome = await desktopMe({
    authorization: request.headers.get("authorization"),
    appVersion: request.headers.get("x-app-version"),
  });
  if (outcome.status === 200) return json(outcome.body);
  if (outcome.status === 403) {
    const refusal = checkInRefusal(outcome.deviceLimit, outcome.inUse, env().SITE_URL);
    return Response.json(refusal.body, { status: refusal.status, headers: refusal.headers });
  }
  return invalidTokenResponse();
}

export const loader = () => methodNotAllowed("POST");
