/**
 * Free Pro trials without a card (issue 36, decision 0050). A trial is a row in `trials` and an
 * entitlement grant for its days, so the site, `/api/desktop/me` and the licence show Pro with no
 * code of their own, and the licence ends with the trial (`renews: false`). One trial per
 * account and per mailbox, decided by unique keys in the database, so two starts at once give
 * one trial; none for someone who has had a paid subscription.
 */
import { and, eq, gt, inArray, isNotNull, isNull } from "drizzle-orm";
import { type PaidPlanId } from "~/lib/plans";
import type { TrialEndReason } from "~/lib/trials";
import { db as defaultDb, type Database, type Executor } from "../db";
import {
  desktopDevices,
  entitlementGrants,
  trialMachines,
  subscriptions,
  type TrialRow,
  trials,
  TRIAL_GRANT_REASON,
  type TRIAL_SOURCES,
  user as users,
} from "../db/schema";
import { env } from "../env";
import { entitlementFor } from "../billing/entitlement.server";
import { mailboxKey } from "../security/person-keys.server";
import { queueTrialEnd } from "./end.server";
import { queueTrialMails } from "./mails.server";

/** The plan a trial gives: Pro, with its devices and features. */
export const TRIAL_PLAN: PaidPlanId = "pro-monthly";

const DAY_MS = 86_400_000;

export type TrialSource = (typeof TRIAL_SOURCES)[number];

/** Why someone cannot start a trial, in words the page and the API show. */
export type TrialRefusal =
  | "trials-off"
  | "trial-running"
  | "had-trial"
  | "mailbox-had-trial"
  | "machine-had-trial"
  | "had-subscription"
  | "holds-pro";

export const TRIAL_REFUSALS: Record<TrialRefusal, string> = {
  "trials-off": "Free trials are not offered at the moment.",
  "trial-running": "Your Pro trial is already on.",
  "had-trial": "This account has already had its free trial.",
  "mailbox-had-trial": "This email address has already had a free trial, on another account.",
  "machine-had-trial":
    "A computer signed in to this account has already had a free trial, on another account.",
  "had-subscription": "Free trials are for people new to Pro: this account has had Pro before.",
  "holds-pro":
    "You have Pro already (from a team's seat, or given by us): a free trial is for people on Free.",
};

export type TrialState =
  | { kind: "eligible"; days: number }
  | { kind: "running"; trial: TrialRow }
  | { kind: "refused"; reason: TrialRefusal; trial: TrialRow | null };

/** Where a person stands with trials: may start one, has one running, or may not (and why). */
export async function trialState(
  user: { id: string; email: string },
  options: { database?: Executor; now?: Date } = {},
): Promise<TrialState> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  const own = await trialOf(user.id, database);
  if (own)
    return own.endsAt > now
      ? { kind: "running", trial: own }
      : { kind: "refused", reason: "had-trial", trial: own };
  const days = env().TRIAL_DAYS;
  if (days === 0) return { kind: "refused", reason: "trials-off", trial: null };
  const [subscription] = await database
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.userId, user.id))
    .limit(1);
  if (subscription) return { kind: "refused", reason: "had-subscription", trial: null };
  // Pro from elsewhere (a team's seat, a grant): a trial would add nothing but a second claim on
  // the one trial per person (issue 54: nobody holding Pro is offered one).
  if ((await entitlementFor(user.id, { database, now })).plan !== "free")
    return { kind: "refused", reason: "holds-pro", trial: null };
  const [sameMailbox] = await database
    .select({ id: trials.id })
    .from(trials)
    .where(eq(trials.mailboxKey, mailboxKey(user.email)));
  if (sameMailbox) return { kind: "refused", reason: "mailbox-had-trial", trial: null };
  const machines = await machinesOf(user.id, database);
  if (machines.length > 0) {
    const [sameMachine] = await database
      .select({ key: trialMachines.machineKey })
      .from(trialMachines)
      .where(inArray(trialMachines.machineKey, machines))
      .limit(1);
    if (sameMachine) return { kind: "refused", reason: "machine-had-trial", trial: null };
  }
  return { kind: "eligible", days };
}

/** The machine keys of the account's signed-in desktop devices. */
async function machinesOf(userId: string, database: Executor): Promise<string[]> {
  const rows = await database
    .selectDistinct({ key: desktopDevices.machineKey })
    .from(desktopDevices)
    .where(
      and(
        eq(desktopDevices.userId, userId),
        isNull(desktopDevices.revokedAt),
        isNotNull(desktopDevices.machineKey),
      ),
    );
  return rows.flatMap((row) => (row.key ? [row.key] : []));
}

/**
 * Remembers computers as having had this trial: every device signed in when it starts, and one
 * that signs in while it runs (devices.server). A computer another trial already holds stays its.
 */
export async function recordTrialMachines(
  database: Executor,
  trialId: string,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  await database
    .insert(trialMachines)
    .values(keys.map((machineKey) => ({ machineKey, trialId })))
    .onConflictDoNothing();
}

/**
 * A computer signing in to an account whose trial runs (issue 53, finding 10). The start checks
 * the computers signed in then; a trial started on the website with none was never checked, so
 * signing the app in afterwards on a computer that had had another account's trial kept both.
 * Now, when this trial has no computer yet and this one is another trial's, the trial ends now,
 * with the start's rule as its reason; otherwise the computer becomes this trial's. A trial that
 * has a computer already keeps running: its first one was new to trials. In the sign-in's
 * transaction, which holds the account's row, so two sign-ins of one account are taken in turn.
 */
export async function checkTrialMachine(
  database: Executor,
  trial: Pick<TrialRow, "id">,
  key: string,
  now = new Date(),
): Promise<"recorded" | "ended"> {
  const [holder] = await database
    .select({ trialId: trialMachines.trialId })
    .from(trialMachines)
    .where(eq(trialMachines.machineKey, key));
  if (holder && holder.trialId !== trial.id) {
    const [own] = await database
      .select({ key: trialMachines.machineKey })
      .from(trialMachines)
      .where(eq(trialMachines.trialId, trial.id))
      .limit(1);
    if (!own) {
      await endTrialEarly(database, trial.id, "machine-had-trial", now);
      return "ended";
    }
  }
  await recordTrialMachines(database, trial.id, [key]);
  return "recorded";
}

/**
 * Ends a running trial now, for `reason`: the trial and its grant end, and its end is recorded and
 * mailed by the same jobs as a trial that ran its course (queued for the new end; those queued for
 * the old one find the trial moved and do nothing). False when it had ended already.
 */
export async function endTrialEarly(
  database: Executor,
  trialId: string,
  reason: TrialEndReason,
  now = new Date(),
): Promise<boolean> {
  const [trial] = await database.select().from(trials).where(eq(trials.id, trialId)).for("update");
  if (!trial || trial.endsAt <= now) return false;
  const [ended] = await database
    .update(trials)
    .set({ endsAt: now, endReason: reason })
    .where(eq(trials.id, trial.id))
    .returning();
  if (trial.grantId)
    await database
      .update(entitlementGrants)
      .set({ endsAt: now })
      .where(and(eq(entitlementGrants.id, trial.grantId), gt(entitlementGrants.endsAt, now)));
  await queueTrialMails(database, ended!, now);
  await queueTrialEnd(database, ended!);
  return true;
}

/** The account's trial while it runs (for a device that signs in meanwhile). */
export async function runningTrialOf(
  userId: string,
  database: Executor = defaultDb(),
  now = new Date(),
): Promise<TrialRow | null> {
  const trial = await trialOf(userId, database);
  return trial && trial.endsAt > now ? trial : null;
}

/**
 * Starts a trial for a signed-in person, or says why not. The trial and its grant are written in
 * one transaction with the reminder mails; the unique keys on the account and the mailbox make
 * a second start (another tab, another account on the same mailbox) refused, never a second trial.
 */
export async function startTrial(
  user: { id: string; email: string },
  source: TrialSource,
  options: {
    database?: Database;
    now?: Date;
    /** The starting browser's analytics id, only when it consented (its `trial_end`). */
    analyticsClientId?: string | null;
  } = {},
): Promise<{ ok: true; trial: TrialRow } | { ok: false; reason: TrialRefusal }> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  return database.transaction(async (tx) => {
    // One start at a time per account (two tabs at once): the second waits for the first to
    // commit, then reads its trial, not a half-seen state ("you have Pro already" from the
    // first's grant, read between the two checks below).
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    const state = await trialState(user, { database: tx, now });
    if (state.kind === "running") return { ok: false, reason: "trial-running" as const };
    if (state.kind === "refused") return { ok: false, reason: state.reason };
    const endsAt = new Date(now.getTime() + state.days * DAY_MS);
    const [trial] = await tx
      .insert(trials)
      .values({
        userId: user.id,
        mailboxKey: mailboxKey(user.email),
        planId: TRIAL_PLAN,
        source,
        startedAt: now,
        endsAt,
        analyticsClientId: options.analyticsClientId ?? null,
      })
      .onConflictDoNothing()
      .returning();
    // Another start won the race between the check and the insert: the check, again, says why.
    if (!trial) {
      const again = await trialState(user, { database: tx, now });
      return {
        ok: false,
        reason: again.kind === "refused" ? again.reason : ("trial-running" as const),
      };
    }
    const [grant] = await tx
      .insert(entitlementGrants)
      .values({
        userId: user.id,
        planId: TRIAL_PLAN,
        startsAt: now,
        endsAt,
        reason: TRIAL_GRANT_REASON,
      })
      .returning({ id: entitlementGrants.id });
    const [withGrant] = await tx
      .update(trials)
      .set({ grantId: grant!.id })
      .where(eq(trials.id, trial.id))
      .returning();
    await recordTrialMachines(tx, trial.id, await machinesOf(user.id, tx));
    await queueTrialMails(tx, withGrant!, now);
    await queueTrialEnd(tx, withGrant!);
    return { ok: true, trial: withGrant! };
  });
}

/**
 * Moves a running trial's end `days` later (an operator's goodwill; audited by the caller): the
 * trial, its grant and its mails (queued again for the new end; those for the old end send
 * nothing). An ended trial is not reopened: a grant gives Pro then.
 */
export async function extendTrial(
  userId: string,
  days: number,
  options: { database?: Database; now?: Date } = {},
): Promise<{ before: Date; after: Date } | null> {
  const database = options.database ?? defaultDb();
  const now = options.now ?? new Date();
  return database.transaction(async (tx) => {
    const [trial] = await tx.select().from(trials).where(eq(trials.userId, userId)).for("update");
    if (!trial || trial.endsAt <= now) return null;
    const after = new Date(trial.endsAt.getTime() + days * DAY_MS);
    const [moved] = await tx
      .update(trials)
      .set({ endsAt: after })
      .where(eq(trials.id, trial.id))
      .returning();
    if (trial.grantId)
      await tx
        .update(entitlementGrants)
        .set({ endsAt: after })
        .where(eq(entitlementGrants.id, trial.grantId));
    await queueTrialMails(tx, moved!, now);
    await queueTrialEnd(tx, moved!);
    return { before: trial.endsAt, after };
  });
}

/**
 * The shortest time before a trial's end at which a plan bought during it can still be set to
 * start at that end (issue 36, point 4): the buyer authorises the mandate now and Razorpay needs
 * the start to be in the future when it does; closer to the end the plan starts at once.
 */
export const PAID_START_LEAD_MS = 60 * 60_000;

/**
 * When a plan bought now may start instead of at once: the end of the account's running trial,
 * if it is at least `PAID_START_LEAD_MS` away; else null (no trial, or too close to its end).
 */
export async function paidStartAfterTrial(
  userId: string,
  database: Executor = defaultDb(),
  now = new Date(),
): Promise<Date | null> {
  const trial = await trialOf(userId, database);
  return trial && trial.endsAt.getTime() - now.getTime() >= PAID_START_LEAD_MS
    ? trial.endsAt
    : null;
}

/** The account's trial, whatever its state (one per account: a unique key). */
export async function trialOf(
  userId: string,
  database: Executor = defaultDb(),
): Promise<TrialRow | null> {
  const [row] = await database.select().from(trials).where(eq(trials.userId, userId));
  return row ?? null;
}
