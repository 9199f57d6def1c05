import { revokeDevice } from "~/.server/desktop/devices.server";
import { json, methodNotAllowed, requireDevice } from "~/.server/desktop/http.server";
import type { Route } from "./+types/logout";

/** POST /api/desktop/logout: signs this device out; its tokens stop working at once. */
export async function action({ request }: Route.ActionArgs) {
  const found = await requireDevice(request);
  if (found instanceof Response) return found;
  await revokeDevice(found.device.id, found.user.id);
  return json({ ok: true });
}

export const loader = () => methodNotAllowed("POST");
