import { json, methodNotAllowed, requireDevice } from "~/.server/desktop/http.server";
import { releaseMachineLeases } from "~/.server/teams/floating-seats.server";
import type { Route } from "./+types/release-seat";

/**
 * POST /api/desktop/release-seat (issue 57, point 2): the app is quitting and gives back the team's
 * floating seat it holds, so another machine can take it now rather than when the lease runs out.
 * The machine stays signed in; its next check-in takes a seat again if one is free.
 */
export async function action({ request }: Route.ActionArgs) {
  const found = await requireDevice(request);
  if (found instanceof Response) return found;
  await releaseMachineLeases([found.device.id], "quit");
  return json({ ok: true });
}

export const loader = () => methodNotAllowed("POST");
