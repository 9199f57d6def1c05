import { entitlementFor } from "~/.server/billing/entitlement.server";
import { json, requireDevice } from "~/.server/desktop/http.server";
import { signLicense } from "~/.server/desktop/license.server";
import type { Route } from "./+types/me";

/** GET /api/desktop/me: who is signed in, what they may use, and a signed licence for offline use. */
export async function loader({ request }: Route.LoaderArgs) {
  const found = await requireDevice(request);
  if (found instanceof Response) return found;
  const { user, device } = found;
  const entitlement = await entitlementFor(user.id);
  const license = await signLicense({ userId: user.id, deviceId: device.id, entitlement });
  return json({
    user: { id: user.id, email: user.email, name: user.name },
    device: { id: device.id, name: device.name, platform: device.platform },
    entitlement,
    license,
  });
}
