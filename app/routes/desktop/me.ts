import { entitlementFor } from "~/.server/billing/entitlement.server";
import { json, requireDevice } from "~/.server/desktop/http.server";
import { recordAppVersion } from "~/.server/desktop/devices.server";
import { signLicense } from "~/.server/desktop/license.server";
import { updateStatusFor } from "~/.server/releases/policy.server";
import { isVersion } from "~/.server/releases/versions";
import type { Route } from "./+types/me";

/**
 * GET /api/desktop/me: who is signed in, what they may use, a signed licence for offline use, and
 * whether an update is available or required for the version the app reports (`X-App-Version`,
 * else the version it signed in with).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const found = await requireDevice(request);
  if (found instanceof Response) return found;
  const { user, device } = found;
  const reported = request.headers.get("x-app-version")?.trim();
  const appVersion = reported && isVersion(reported) ? reported : device.appVersion;
  if (appVersion !== device.appVersion) await recordAppVersion(device.id, appVersion);
  const [entitlement, update] = await Promise.all([
    entitlementFor(user.id),
    updateStatusFor(device.platform, appVersion, `device:${device.id}`),
  ]);
  const license = await signLicense({ userId: user.id, deviceId: device.id, entitlement });
  return json({
    user: { id: user.id, email: user.email, name: user.name },
    device: { id: device.id, name: device.name, platform: device.platform },
    entitlement,
    license,
    update,
  });
}
