import type { RouterContextProvider } from "react-router";
import {
  getSession,
  requireSession,
  SESSION_COLUMNS,
  type Session,
  type SessionRow,
  sessionReadFromCookie,
} from "../auth/session";
import {
  type EntitlementSources,
  seatRankSql,
  upfrontPaidUntilSql,
} from "../billing/entitlement.server";
import type { SubscriptionRow } from "../db/schema";
import { type Database, db as defaultDb } from "../db";
import { prepared } from "../db/prepared";

/** What the first-run checklist is decided from (`onboardingProgressOf`). */
export interface OnboardingFacts {
  signedUpAt: Date | null;
  /** The first desktop handoff issued for the user (the app asked to sign in). */
  handoffAt: Date | null;
  /** The first device created for the user, signed out since or not. */
  signedInAt: Date | null;
  /** The first last-seen time of a device that moved on after its sign-in. */
  seenAt: Date | null;
  /** The first feature-usage report, as the app's clock dated it. */
  usageAt: Date | null;
}

/** A user's subscriptions as the account pages read them, newest first. */
export interface AccountSubscription {
  planId: string;
  status: SubscriptionRow["status"];
  replacesSubscriptionId: string | null;
  createdAt: Date;
  currentEnd: Date | null;
  chargeAt: Date | null;
  endReason: SubscriptionRow["endReason"];
}

/** Everything the account area's frame and overview show about a user, read at one instant. */
export interface AccountState extends EntitlementSources {
  subscriptions: AccountSubscription[];
  /** Grants live at the instant of the read. */
  grants: { planId: string; startsAt: Date; endsAt: Date }[];
  activeDevices: number;
  onboarding: OnboardingFacts;
}

interface StateRow {
  signed_up_ms: number | null;
  active_devices: number;
  handoff_ms: number | null;
  signed_in_ms: number | null;
  seen_ms: number | null;
  usage_ms: number | null;
  subscriptions: {
    planId: string;
    status: SubscriptionRow["status"];
    replaces: string | null;
    createdMs: number;
    currentEndMs: number | null;
    chargeAtMs: number | null;
    endReason: SubscriptionRow["endReason"];
    cancelAtCycleEnd: boolean;
    paidCount: number;
  }[];
  grants: { planId: string; startsMs: number; endsMs: number }[];
  seats: {
    planId: string;
    status: SubscriptionRow["status"];
    currentEndMs: number | null;
    chargeAtMs: number | null;
    endReason: string | null;
    cancelAtCycleEnd: boolean;
    paidCount: number;
    seats: number;
    seatRank: number;
    upfrontPaidUntilMs: number | null;
    teamId: string;
    teamName: string;
  }[];
}

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

/**
 * The state's columns and the join they need, for the user `u` of the statement that includes
 * them, `now` being the placeholder of the instant grants are live at.
 */
function stateSql(now: string): { columns: string; join: string } {
  return {
    columns: `${ms("u.created_at")} as signed_up_ms,
     d.active_devices, ${ms("d.signed_in")} as signed_in_ms, ${ms("d.seen")} as seen_ms,
     (select ${ms("min(created_at)")} from one_time_tokens
       where user_id = u.id and purpose = 'desktop_handoff') as handoff_ms,
     (select ${ms("min(occurred_at)")} from desktop_usage_events where user_id = u.id) as usage_ms,
     (select coalesce(json_agg(json_build_object(
         'planId', plan_id, 'status', status, 'replaces', replaces_subscription_id,
         'createdMs', ${ms("created_at")}, 'currentEndMs', ${ms("current_end")},
         'chargeAtMs', ${ms("charge_at")}, 'endReason', end_reason,
         'cancelAtCycleEnd', cancel_at_cycle_end, 'paidCount', paid_count)
         order by created_at desc), '[]'::json)
       from subscriptions where user_id = u.id) as subscriptions,
     (select coalesce(json_agg(json_build_object(
         'planId', plan_id, 'startsMs', ${ms("starts_at")}, 'endsMs', ${ms("ends_at")})), '[]'::json)
       from entitlement_grants where user_id = u.id and ends_at > ${now}) as grants,
     (select coalesce(json_agg(json_build_object(
         'planId', ts.plan_id, 'status', ts.status, 'currentEndMs', ${ms("ts.current_end")},
         'chargeAtMs', ${ms("ts.charge_at")}, 'endReason', ts.end_reason,
         'cancelAtCycleEnd', ts.cancel_at_cycle_end, 'paidCount', ts.paid_count,
         'seats', ts.seats,
         'seatRank', ${seatRankSql("seat")},
         'upfrontPaidUntilMs', ${ms(upfrontPaidUntilSql("ts"))},
         'teamId', o.id, 'teamName', o.name)), '[]'::json)
       from team_seats seat
       join member m on m.organization_id = seat.organization_id and m.user_id = seat.user_id
       join subscriptions ts on ts.team_id = seat.organization_id
       join organization o on o.id = seat.organization_id
       where seat.user_id = u.id) as seats`,
    join: `cross join lateral (
     select count(*) filter (where revoked_at is null)::int as active_devices,
       min(created_at) as signed_in,
       min(last_seen_at) filter (where last_seen_at > created_at) as seen
     from desktop_devices where user_id = u.id
   ) d`,
  };
}

/**
 * One statement, planned once per connection (decision 0035): the round trips of a signed-in page
 * cost more CPU than the queries (each is a socket write and a read on this server and on
 * PostgreSQL's), and the account area's frame, overview and checklist used to make seven.
 */
const stateOf = (() => {
  const { columns, join } = stateSql("$2");
  return prepared<StateRow>(
    "account_state",
    ["text", "timestamptz"],
    `select ${columns} from "user" u ${join} where u.id = $1`,
  );
})();

/** The same with the session of a token, for the account area's guard: one round trip for both. */
const sessionAndStateOf = (() => {
  const { columns, join } = stateSql("$2");
  return prepared<SessionRow & StateRow>(
    "session_account_state",
    ["text", "timestamptz"],
    `select ${SESSION_COLUMNS}, ${columns}
     from session s join "user" u on u.id = s.user_id ${join}
     where s.token = $1
     limit 1`,
  );
})();

const dateOf = (value: number | null) => (value === null ? null : new Date(value));

/** The account state of a user at `now` (an unknown user has none of anything). */
export async function readAccountState(
  userId: string,
  options: { database?: Database; now?: Date } = {},
): Promise<AccountState> {
  const [row] = await stateOf.run(options.database ?? defaultDb(), [
    userId,
    options.now ?? new Date(),
  ]);
  return stateOfRow(row);
}

function stateOfRow(row: StateRow | undefined): AccountState {
  return {
    subscriptions: (row?.subscriptions ?? []).map((subscription) => ({
      planId: subscription.planId,
      status: subscription.status,
      replacesSubscriptionId: subscription.replaces,
      createdAt: new Date(subscription.createdMs),
      currentEnd: dateOf(subscription.currentEndMs),
      chargeAt: dateOf(subscription.chargeAtMs),
      cancelAtCycleEnd: subscription.cancelAtCycleEnd,
      paidCount: subscription.paidCount,
      endReason: subscription.endReason,
    })),
    grants: (row?.grants ?? []).map((grant) => ({
      planId: grant.planId,
      startsAt: new Date(grant.startsMs),
      endsAt: new Date(grant.endsMs),
    })),
    seats: (row?.seats ?? []).map((seat) => ({
      planId: seat.planId,
      status: seat.status,
      currentEnd: dateOf(seat.currentEndMs),
      chargeAt: dateOf(seat.chargeAtMs),
      endReason: seat.endReason,
      cancelAtCycleEnd: seat.cancelAtCycleEnd,
      paidCount: seat.paidCount,
      seats: seat.seats,
      seatRank: seat.seatRank,
      upfrontPaidUntil: dateOf(seat.upfrontPaidUntilMs),
      team: { id: seat.teamId, name: seat.teamName },
    })),
    activeDevices: row?.active_devices ?? 0,
    onboarding: {
      signedUpAt: dateOf(row?.signed_up_ms ?? null),
      handoffAt: dateOf(row?.handoff_ms ?? null),
      signedInAt: dateOf(row?.signed_in_ms ?? null),
      seenAt: dateOf(row?.seen_ms ?? null),
      usageAt: dateOf(row?.usage_ms ?? null),
    },
  };
}

/** Per request (the router context of one request), so it goes with the request. */
const readsOf = new WeakMap<object, { userId: string; state: Promise<AccountState> }>();

/**
 * The account area's guard's read (app/routes.ts): the session of the request's cookie and, when
 * there is one, its user's account state, in one statement; `accountState(context)` then answers
 * from it. Only for reads: a form post's loaders run after its action and read the state then. A request Better Auth must answer (a bearer token, a session due for renewal) has its
 * session read by `getSession` and its state by the first loader that asks.
 */
export async function readSessionAndAccountState(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<Session | null> {
  // An action may change the state before the loaders run: they read it again after it.
  if (request.method !== "GET" && request.method !== "HEAD") return getSession(request);
  const found = await sessionReadFromCookie(request.headers, sessionAndStateOf, [new Date()]);
  if (found === undefined) return getSession(request);
  if (found === null) return null;
  readsOf.set(context, {
    userId: found.session.user.id,
    state: Promise.resolve(stateOfRow(found.row)),
  });
  return found.session;
}

/**
 * The signed-in user's account state, read once per request: the account layout's loader and its
 * page's loader run side by side and share the one read.
 */
export function accountState(context: Readonly<RouterContextProvider>): Promise<AccountState> {
  const { user } = requireSession(context);
  const known = readsOf.get(context);
  if (known?.userId === user.id) return known.state;
  const state = readAccountState(user.id);
  readsOf.set(context, { userId: user.id, state });
  return state;
}
