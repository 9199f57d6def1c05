import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { decideEntitlement, type Entitlement } from "../billing/entitlement.server";
import {
  entitlementSourceColumns,
  type EntitlementSourcesRow,
  type SourceGrant,
  sourcesOfRow,
} from "../billing/entitlement-sources";
import { type Database, db as defaultDb } from "../db";
import { desktopDevices } from "../db/schema";
import { updateStatusFor, type UpdateStatus } from "../releases/policy.server";
import { isVersion } from "../releases/versions";
import { type ApiRequestCount, countedRead } from "../security/rate-limit.server";
import { hashToken } from "../security/tokens";
import { bearerToken, recordAppVersion } from "./devices.server";
import { checkInPolicy } from "./check-ins.server";
import { licenceFor } from "./license.server";
import { trialDaysLeft } from "~/lib/trials";
import { TRIAL_GRANT_REASON } from "../db/schema";

/** What `/api/desktop/me` answers a signed-in device. */
export interface MeBody {
  user: { id: string; email: string; name: string };
  device: { id: string; name: string; platform: string };
  entitlement: Entitlement;
  /**
   * A short tag of `entitlement` (issue 57, point 4): the app waits on GET /api/desktop/wait?since=
   * for it to change after opening a purchase, seats or payment link.
   */
  entitlement_tag: string;
  license: string;
  update: UpdateStatus;
  /**
   * The free trial the plan comes from, for the app's notice ("Pro trial: 9 days left"); null
   * when the plan is not a trial's.
   */
  trial: { ends_at: string; days_left: number } | null;
  /**
   * When to check in again, and after how long silent this machine's slot is freed (issue 57):
   * a purchase, refund or seat change reaches a running app at its next check-in.
   */
  check_in: { interval_seconds: number; silent_after_seconds: number };
}

/**
 * 429 past the API rate limit (when asked to count it), 401 (no, unknown, expired or revoked
 * token, or a banned account), else the device's answer.
 */
export type MeOutcome =
  | { status: 429; retryAfter: number }
  | { status: 401 }
  | { status: 403; deviceLimit: number; inUse: number }
  | { status: 200; body: MeBody };

interface MeRow extends EntitlementSourcesRow {
  id: string;
  user_id: string;
  name: string;
  platform: string;
  app_version: string;
  last_seen_ms: number;
  email: string;
  user_name: string;
  banned: boolean;
  /** The user's other signed-in devices used more recently than this one (or as recently, later made). */
  newer_devices: number;
  /** Licence files not expired: each holds a slot ahead of every signed-in machine (issue 57). */
  licence_files: number;
}

/**
 * Everything `/me` reads, in one statement planned once (decision 0032): the device behind the
 * token's hash (not revoked, not expired) with its user, and what `entitlementFor` reads (the
 * same columns: entitlement-sources.ts). Nothing is kept between calls: a revoked device, a
 * banned account or a changed entitlement shows on the next call, on every process.
 */
const lookup = countedRead<MeRow>(
  "desktop_me",
  ["text", "timestamptz"],
  `select d.id, d.user_id, d.name, d.platform, d.app_version,
     (extract(epoch from d.last_seen_at) * 1000)::float8 as last_seen_ms,
     u.email, u.name as user_name, coalesce(u.banned, false) as banned,
     (select count(*)::int from desktop_devices o
       where o.user_id = d.user_id and o.revoked_at is null and o.id <> d.id
         and (o.last_seen_at > d.last_seen_at
           or (o.last_seen_at = d.last_seen_at and o.created_at > d.created_at))) as newer_devices,
     (select count(*)::int from offline_licences f
       where f.user_id = d.user_id and f.expires_at > $2
         and f.organization_id is null) as licence_files,
     ${entitlementSourceColumns("d.user_id", "$2", "d.id")}
   from desktop_devices d
   join "user" u on u.id = d.user_id
   where d.access_token_hash = $1 and d.revoked_at is null and d.access_expires_at > $2`,
);

/** A tag that changes whenever anything in the entitlement does (its keys are in a fixed order). */
export function entitlementTag(entitlement: Entitlement): string {
  return createHash("sha256").update(JSON.stringify(entitlement)).digest("hex").slice(0, 16);
}

/** The trial behind an entitlement that ends when a trial grant does (not a plan bought since). */
function trialOf(
  grants: readonly SourceGrant[],
  entitlement: Entitlement,
  now: Date,
): MeBody["trial"] {
  if (entitlement.renews || !entitlement.expires_at) return null;
  const grant = grants.find(
    (row) =>
      row.reason === TRIAL_GRANT_REASON &&
      row.startsAt <= now &&
      row.endsAt.toISOString() === entitlement.expires_at,
  );
  if (!grant) return null;
  return {
    ends_at: entitlement.expires_at,
    days_left: trialDaysLeft(entitlement.expires_at, now),
  };
}

/**
 * GET /api/desktop/me for the Bearer access token in `authorization`: who is signed in, what they
 * may use, a signed licence for offline use, and whether an update is available or required for
 * the version the app reports (`X-App-Version`, else the version it signed in with). The route's
 * loader (after its layout's rate limit) and its fast answer (server/fast-answers.ts, which asks
 * for the count too, made before the read without a write) both answer with this.
 */
export async function desktopMe(
  request: { authorization: string | null; appVersion: string | null },
  options: { count?: ApiRequestCount; database?: Database; now?: Date } = {},
): Promise<MeOutcome> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  const token = bearerToken(request.authorization);
  if (!token && !options.count) return { status: 401 };
  // A request without a token is counted too (the limit is per client, whatever it sends): its
  // read, of a hash no token has, finds nothing.
  const { limit, rows } = await lookup.run(
    database,
    [token ? hashToken(token) : "", now],
    options.count,
  );
  if (limit && !limit.allowed) return { status: 429, retryAfter: limit.retryAfter };
  const device = token ? rows[0] : undefined;
  if (!device || device.banned) return { status: 401 };
  const sources = sourcesOfRow(device, { forMachine: true });
  const entitlement = decideEntitlement(sources, now);
  // More devices signed in than the plan allows (Pro ended, three devices on Free's one): the
  // most recently used keep working; the others get no licence until the owner signs one out
  // (issue 32, "also close"). Refused, a device is not "used", so the choice stays put.
  const ahead = device.newer_devices + device.licence_files;
  if (ahead >= entitlement.device_limit)
    return { status: 403, deviceLimit: entitlement.device_limit, inUse: ahead };
  // lastSeenAt at minute resolution is enough, and saves a write on every call.
  if (now.getTime() - device.last_seen_ms > 60_000) {
    await database
      .update(desktopDevices)
      .set({ lastSeenAt: now })
      .where(eq(desktopDevices.id, device.id));
  }
  const reported = request.appVersion?.trim();
  const appVersion = reported && isVersion(reported) ? reported : device.app_version;
  if (appVersion !== device.app_version) await recordAppVersion(device.id, appVersion, database);
  const update = await updateStatusFor(
    device.platform,
    appVersion,
    `device:${device.id}`,
    options.database,
  );
  const license = await licenceFor(
    { userId: device.user_id, deviceId: device.id, entitlement },
    database,
    now,
  );
  return {
    status: 200,
    body: {
      user: { id: device.user_id, email: device.email, name: device.user_name },
      device: { id: device.id, name: device.name, platform: device.platform },
      entitlement,
      entitlement_tag: entitlementTag(entitlement),
      license,
      update,
      trial: trialOf(sources.grants, entitlement, now),
      check_in: checkInPolicy(),
    },
  };
}
