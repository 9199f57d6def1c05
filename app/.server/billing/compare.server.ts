/** Our record of a subscription beside Razorpay's, field by field, for the fix-subscription pages. */
import type { SubscriptionRow } from "../db/schema";
import { razorpay } from "./provider.server";
import { formatDate } from "~/lib/dates";
import { hitRateLimit } from "../security/rate-limit.server";
import { RazorpayError, type RazorpayClient } from "./razorpay/client";
import type { RazorpaySubscription } from "./razorpay/types";

export interface ComparedField {
  label: string;
  ours: string;
  provider: string;
  differs: boolean;
}

export interface Comparison {
  providerSubscriptionId: string;
  fields: ComparedField[];
  /** Razorpay could not be asked (network, keys): the reason. */
  error: string | null;
  inSync: boolean;
}

/** A day as people read it everywhere else (India date): "24 Dec 2026", never the UTC day. */
const day = (date: Date | null) => (date ? formatDate(date) : "—");
const fromUnix = (seconds: number | null | undefined) =>
  seconds ? new Date(seconds * 1000) : null;

/** Our row beside a snapshot of Razorpay's subscription, field by field. */
export function compareRecords(row: SubscriptionRow, remote: RazorpaySubscription): Comparison {
  const pairs: [string, string, string][] = [
    ["Status", row.status, remote.status],
    ["Razorpay plan", row.providerPlanId, remote.plan_id],
    ["Period ends", day(row.currentEnd), day(fromUnix(remote.current_end))],
    ["Next charge", day(row.chargeAt), day(fromUnix(remote.charge_at))],
    ["Payments made", String(row.paidCount), String(remote.paid_count)],
    ["Failed attempts", String(row.authAttempts), String(remote.auth_attempts ?? 0)],
    [
      "Change scheduled",
      row.hasScheduledChanges ? "yes" : "no",
      remote.has_scheduled_changes ? "yes" : "no",
    ],
  ];
  const fields = pairs.map(([label, ours, provider]) => ({
    label,
    ours,
    provider,
    differs: ours !== provider,
  }));
  return {
    providerSubscriptionId: row.providerSubscriptionId,
    fields,
    error: null,
    inSync: fields.every((field) => !field.differs),
  };
}

function unreachable(row: SubscriptionRow, error: unknown): Comparison {
  const message =
    error instanceof RazorpayError
      ? `Razorpay answered: ${error.description}`
      : "Razorpay could not be reached.";
  return {
    providerSubscriptionId: row.providerSubscriptionId,
    fields: [],
    error: message,
    inSync: false,
  };
}

/** Asks Razorpay now (the admin pages: operators want the provider's word as it is). */
export async function compareWithProvider(
  row: SubscriptionRow,
  client: RazorpayClient = razorpay(),
): Promise<Comparison> {
  try {
    return compareRecords(row, await client.fetchSubscription(row.providerSubscriptionId));
  } catch (error) {
    return unreachable(row, error);
  }
}

/** How long Razorpay's answer is shown again to a subscriber's page loads without asking anew. */
export const SNAPSHOT_TTL_MS = 60_000;

/** Lookups at Razorpay a subscriber's page loads may cause: the provider's quota is the site's. */
export const CUSTOMER_LOOKUPS = { max: 10, windowSeconds: 10 * 60 } as const;

/** "Resync" presses per subscriber (each asks Razorpay, bypassing the snapshot). */
export const CUSTOMER_RESYNCS = { max: 5, windowSeconds: 10 * 60 } as const;

const snapshots = new Map<string, { at: number; remote: RazorpaySubscription }>();

/** Forgets the snapshot of a subscription (after a resync, the next page asks again). */
export function forgetSnapshot(providerSubscriptionId: string): void {
  snapshots.delete(providerSubscriptionId);
}

/**
 * /fix-subscription: Razorpay's answer from the last minute when there is one; otherwise a new
 * lookup, counted against the subscriber's limit. Past the limit the page shows the last answer
 * (saying when it was given) or says when to look again: reloading cannot spend the quota.
 */
export async function compareForSubscriber(
  userId: string,
  row: SubscriptionRow,
  client: RazorpayClient = razorpay(),
  now: number = Date.now(),
): Promise<Comparison & { askedAt: Date | null }> {
  const id = row.providerSubscriptionId;
  const held = snapshots.get(id);
  if (held && now - held.at < SNAPSHOT_TTL_MS)
    return { ...compareRecords(row, held.remote), askedAt: new Date(held.at) };
  const limit = await hitRateLimit(
    `provider-lookup:${userId}`,
    CUSTOMER_LOOKUPS.max,
    CUSTOMER_LOOKUPS.windowSeconds,
  );
  if (!limit.allowed) {
    if (held) return { ...compareRecords(row, held.remote), askedAt: new Date(held.at) };
    const minutes = Math.max(1, Math.ceil(limit.retryAfter / 60));
    return {
      providerSubscriptionId: id,
      fields: [],
      error: `Razorpay was asked about this subscription many times in a short while. Look again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
      inSync: false,
      askedAt: null,
    };
  }
  try {
    const remote = await client.fetchSubscription(id);
    snapshots.set(id, { at: now, remote });
    // A long-lived process keeps only recent answers.
    for (const [key, value] of snapshots)
      if (now - value.at >= SNAPSHOT_TTL_MS) snapshots.delete(key);
    return { ...compareRecords(row, remote), askedAt: new Date(now) };
  } catch (error) {
    return { ...unreachable(row, error), askedAt: null };
  }
}
