import { desktopMe, type MeOutcome } from "~/.server/desktop/me.server";
import {
  checkInRefusal,
  invalidTokenResponse,
  json,
  methodNotAllowed,
} from "~/.server/desktop/http.server";
import { env } from "~/.server/env";
import { floatingSeatAnswer, takeFloatingSeat } from "~/.server/teams/floating-seats.server";
import type { Route } from "./+types/heartbeat";

/**
 * POST /api/desktop/heartbeat (issue 57): a running app checks in every `check_in.interval_seconds`
 * with its access token. The answer is `/me`'s (the current entitlement, licence and update), so a
 * purchase, a refund or a seat change reaches the app now. A machine silent past
 * `check_in.silent_after_seconds` lost its slot; checking in revives it while a slot is free, and
 * is refused with words naming the machines in use while none is. When a team's floating seat is
 * what gives the machine Pro, the check-in takes or renews its lease, or says why none is free
 * (`floating_seat`).
 */
export async function action({ request }: Route.ActionArgs) {
  const asked = {
    authorization: request.headers.get("authorization"),
    appVersion: request.headers.get("x-app-version"),
  };
  const first = await desktopMe(asked);
  if (first.status !== 200) return refusal(first);
  const seat = await takeFloatingSeat({
    deviceId: first.body.device.id,
    userId: first.body.user.id,
  });
  // Read again once the lease is taken or given back: the entitlement and licence follow it.
  const outcome =
    seat.kind === "none" && !first.body.entitlement.lease_until ? first : await desktopMe(asked);
  if (outcome.status !== 200) return refusal(outcome);
  return json({ ...outcome.body, floating_seat: floatingSeatAnswer(seat) });
}

function refusal(outcome: Exclude<MeOutcome, { status: 200 }>) {
  if (outcome.status === 403) {
    const refused = checkInRefusal(outcome.deviceLimit, outcome.inUse, env().SITE_URL);
    return Response.json(refused.body, { status: refused.status, headers: refused.headers });
  }
  return invalidTokenResponse();
}

export const loader = () => methodNotAllowed("POST");
