import { eq } from "drizzle-orm";
import type { SubscriptionStatus } from "~/lib/subscription-state";
import {
  decideEntitlement,
  type Entitlement,
  seatRankSql,
  upfrontPaidUntilSql,
} from "../billing/entitlement.server";
import { type Database, db as defaultDb } from "../db";
import { desktopDevices } from "../db/schema";
import { updateStatusFor, type UpdateStatus } from "../releases/policy.server";
import { isVersion } from "../releases/versions";
import { type ApiRequestCount, countedRead } from "../security/rate-limit.server";
import { hashToken } from "../security/tokens";
import { bearerToken, recordAppVersion } from "./devices.server";
import { licenceFor } from "./license.server";
import { trialDaysLeft } from "~/lib/trials";
import { TRIAL_GRANT_REASON } from "../db/schema";

/** What `/api/desktop/me` answers a signed-in device. */
export interface MeBody {
  user: { id: string; email: string; name: string };
  device: { id: string; name: string; platform: string };
  entitlement: Entitlement;
  license: string;
  update: UpdateStatus;
  /**
   * The free trial the plan comes from, for the app's notice ("Pro trial: 9 days left"); null
   * when the plan is not a trial's.
   */
  trial: { ends_at: string; days_left: number } | null;
}

/**
 * 429 past the API rate limit (when asked to count it), 401 (no, unknown, expired or revoked
 * token, or a banned account), else the device's answer.
 */
export type MeOutcome =
  | { status: 429; retryAfter: number }
  | { status: 401 }
  | { status: 403; deviceLimit: number }
  | { status: 200; body: MeBody };

interface MeRow {
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
  /** One row per subscription and live grant of the user (null when there is none). */
  is_grant: boolean | null;
  /** A grant's reason ("trial" for a free trial's); null for a subscription. */
  reason: string | null;
  plan_id: string | null;
  /** A subscription's status (the column's own type); null for a grant. */
  status: SubscriptionStatus | null;
  end_reason: string | null;
  cancel_at_cycle_end: boolean | null;
  paid_count: number | null;
  seats: number | null;
  /** A team seat's place among the team's seats (only the first paid ones give Pro). */
  seat_rank: number | null;
  upfront_paid_until_ms: number | null;
  first_ms: number | null;
  second_ms: number | null;
  /** A team's subscription, whose seat the user holds (issue 37). */
  team_id: string | null;
  team_name: string | null;
}

/**
 * Everything `/me` reads, in one statement planned once (decision 0032): the device behind the
 * token's hash (not revoked, not expired) with its user, and the user's subscriptions and live
 * grants — what `entitlementFor` reads — one row each. Nothing is kept between calls: a revoked
 * device, a banned account or a changed entitlement shows on the next call, on every process.
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
     s.is_grant, s.reason, s.plan_id, s.status, s.end_reason, s.team_id, s.team_name,
     s.cancel_at_cycle_end, s.paid_count, s.seats, s.seat_rank,
     (extract(epoch from s.upfront_paid_until) * 1000)::float8 as upfront_paid_until_ms,
     (extract(epoch from s.first) * 1000)::float8 as first_ms,
     (extract(epoch from s.second) * 1000)::float8 as second_ms
   from desktop_devices d
   join "user" u on u.id = d.user_id
   left join lateral (
     select false as is_grant, null::text as reason, plan_id, status::text as status,
       current_end as first, charge_at as second, end_reason,
       null::text as team_id, null::text as team_name,
       cancel_at_cycle_end, paid_count, seats, null::int as seat_rank,
       null::timestamptz as upfront_paid_until
     from subscriptions where user_id = d.user_id
     union all
     select false, null, ts.plan_id, ts.status::text, ts.current_end, ts.charge_at,
       ts.end_reason, o.id, o.name, ts.cancel_at_cycle_end, ts.paid_count, ts.seats, ${seatRankSql("seat")},
       ${upfrontPaidUntilSql("ts")}
     from team_seats seat
     join member m on m.organization_id = seat.organization_id and m.user_id = seat.user_id
     join subscriptions ts on ts.team_id = seat.organization_id
     join organization o on o.id = seat.organization_id
     where seat.user_id = d.user_id
     union all
     select true, reason, plan_id, '', starts_at, ends_at, null, null, null, false, 0, 1, null, null
     from entitlement_grants where user_id = d.user_id and ends_at > $2
   ) s on true
   where d.access_token_hash = $1 and d.revoked_at is null and d.access_expires_at > $2`,
);

const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms));

/** The entitlement of the rows' user at `now`, decided as `entitlementFor` decides it. */
function entitlementOf(rows: MeRow[], now: Date): Entitlement {
  const subscriptions = [];
  const grants = [];
  for (const row of rows) {
    if (row.is_grant === null || row.plan_id === null) continue;
    if (!row.is_grant && row.status !== null) {
      subscriptions.push({
        planId: row.plan_id,
        status: row.status,
        currentEnd: dateOf(row.first_ms),
        chargeAt: dateOf(row.second_ms),
        endReason: row.end_reason,
        cancelAtCycleEnd: Boolean(row.cancel_at_cycle_end),
        paidCount: row.paid_count ?? 0,
        seats: row.seats ?? 1,
        ...(row.seat_rank === null ? {} : { seatRank: row.seat_rank }),
        upfrontPaidUntil: dateOf(row.upfront_paid_until_ms),
        team: row.team_id ? { id: row.team_id, name: row.team_name ?? "" } : null,
      });
    } else if (row.is_grant && row.first_ms !== null && row.second_ms !== null) {
      grants.push({
        planId: row.plan_id,
        startsAt: new Date(row.first_ms),
        endsAt: new Date(row.second_ms),
      });
    }
  }
  return decideEntitlement({ subscriptions, grants }, now);
}

/** The trial behind an entitlement that ends when a trial grant does (not a plan bought since). */
function trialOf(rows: MeRow[], entitlement: Entitlement, now: Date): MeBody["trial"] {
  if (entitlement.renews || !entitlement.expires_at) return null;
  const grant = rows.find(
    (row) =>
      row.is_grant &&
      row.reason === TRIAL_GRANT_REASON &&
      row.second_ms !== null &&
      row.first_ms !== null &&
      row.first_ms <= now.getTime() &&
      new Date(row.second_ms).toISOString() === entitlement.expires_at,
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
 * for the count too, read in the same statement) both answer with this.
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
  const entitlement = entitlementOf(rows, now);
  // More devices signed in than the plan allows (Pro ended, three devices on Free's one): the
  // most recently used keep working; the others get no licence until the owner signs one out
  // (issue 32, "also close"). Refused, a device is not "used", so the choice stays put.
  if (device.newer_devices >= entitlement.device_limit)
    return { status: 403, deviceLimit: entitlement.device_limit };
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
      license,
      update,
      trial: trialOf(rows, entitlement, now),
    },
  };
}
