import type { Currency, Money } from "~/lib/money";
import type { RouterContextProvider } from "react-router";
import {
  getSession,
  requireSession,
  SESSION_COLUMNS,
  type Session,
  type SessionRow,
  sessionReadFromCookie,
} from "../auth/session";
import type { EntitlementSources } from "../billing/entitlement.server";
import {
  entitlementSourceColumns,
  type EntitlementSourcesRow,
  type SourceGrant,
  type SourceSubscription,
  sourcesOfRow,
} from "../billing/entitlement-sources";
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
export type AccountSubscription = SourceSubscription;

/** Everything the account area's frame and overview show about a user, read at one instant. */
export interface AccountState extends EntitlementSources {
  subscriptions: AccountSubscription[];
  /** Grants live at the instant of the read. */
  grants: SourceGrant[];
  activeDevices: number;
  onboarding: OnboardingFacts;
  /** What the overview shows beside the plan, read in the same statement (decision 0035). */
  overview: OverviewFacts;
}

/** A referral the user's link brought (the referrals card counts and lists them). */
export interface ReferralMade {
  firstPaidAt: Date | null;
  rewardedAt: Date | null;
  rewardDays: number | null;
  voidedAt: Date | null;
  /** The Pro days the reward added (its grant), when it was given. */
  grantFrom: Date | null;
  grantUntil: Date | null;
}

export interface OverviewFacts {
  /** The user's referral code, null until their overview first made one. */
  referralCode: string | null;
  referralsMade: ReferralMade[];
  /** The referral that brought this user, when a friend's link did. */
  referredBy: Omit<ReferralMade, "grantFrom" | "grantUntil"> | null;
  /** The onboarding steps already reported to analytics. */
  reportedSteps: string[];
  latestInvoice: {
    id: string;
    number: string;
    kind: "invoice" | "credit_note";
    issuedAt: Date;
    /** What it was for: rupees, or an export's amount in its currency (issue 56). */
    total: Money;
  } | null;
}

interface ReferralJson {
  firstPaidMs: number | null;
  rewardedMs: number | null;
  rewardDays: number | null;
  voidedMs: number | null;
}

interface StateRow extends EntitlementSourcesRow {
  referral_code: string | null;
  referrals_made: (ReferralJson & { grantFromMs: number | null; grantUntilMs: number | null })[];
  referred_by: ReferralJson | null;
  reported_steps: string[];
  latest_invoice: {
    id: string;
    number: string;
    kind: "invoice" | "credit_note";
    issuedMs: number;
    totalPaise: number;
    currency: Currency;
    currencyAmount: number | null;
  } | null;
  signed_up_ms: number | null;
  active_devices: number;
  handoff_ms: number | null;
  signed_in_ms: number | null;
  seen_ms: number | null;
  usage_ms: number | null;
}

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

const referralJson = (r: string) =>
  `'firstPaidMs', ${ms(`${r}.first_paid_at`)}, 'rewardedMs', ${ms(`${r}.rewarded_at`)},
   'rewardDays', ${r}.reward_days, 'voidedMs', ${ms(`${r}.voided_at`)}`;

const referralOf = (json: ReferralJson) => ({
  firstPaidAt: dateOf(json.firstPaidMs),
  rewardedAt: dateOf(json.rewardedMs),
  rewardDays: json.rewardDays,
  voidedAt: dateOf(json.voidedMs),
});

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
     ${entitlementSourceColumns("u.id", now)},
     (select code from referral_codes where user_id = u.id) as referral_code,
     (select coalesce(json_agg(json_build_object(${referralJson("r")},
         'grantFromMs', ${ms("g.starts_at")}, 'grantUntilMs', ${ms("g.ends_at")})
         order by r.created_at), '[]'::json)
       from referrals r left join entitlement_grants g on g.id = r.reward_grant_id
       where r.referrer_user_id = u.id) as referrals_made,
     (select json_build_object(${referralJson("r")}) from referrals r
       where r.referred_user_id = u.id and r.referrer_user_id is not null) as referred_by,
     (select coalesce(json_agg(step), '[]'::json) from onboarding_reports
       where user_id = u.id) as reported_steps,
     (select json_build_object('id', i.id, 'number', i.number, 'kind', i.kind,
         'issuedMs', ${ms("i.issued_at")}, 'totalPaise', i.total_paise,
         'currency', i.currency, 'currencyAmount', i.currency_amount)
       from invoices i where i.user_id = u.id
       order by i.issued_at desc, i.number desc limit 1) as latest_invoice`,
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
    ...sourcesOfRow(row),
    overview: {
      referralCode: row?.referral_code ?? null,
      referralsMade: (row?.referrals_made ?? []).map((made) => ({
        ...referralOf(made),
        grantFrom: dateOf(made.grantFromMs),
        grantUntil: dateOf(made.grantUntilMs),
      })),
      referredBy: row?.referred_by ? referralOf(row.referred_by) : null,
      reportedSteps: row?.reported_steps ?? [],
      latestInvoice: row?.latest_invoice
        ? {
            id: row.latest_invoice.id,
            number: row.latest_invoice.number,
            kind: row.latest_invoice.kind,
            issuedAt: new Date(row.latest_invoice.issuedMs),
            total:
              row.latest_invoice.currencyAmount === null
                ? { amount: row.latest_invoice.totalPaise, currency: "INR" }
                : {
                    amount: row.latest_invoice.currencyAmount,
                    currency: row.latest_invoice.currency,
                  },
          }
        : null,
    },
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
