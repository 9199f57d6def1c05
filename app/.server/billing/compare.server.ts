/** Our record of a subscription beside Razorpay's, field by field, for the fix-subscription pages. */
import type { SubscriptionRow } from "../db/schema";
import { razorpay } from "./provider.server";
import { RazorpayError, type RazorpayClient } from "./razorpay/client";

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

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : "—");
const fromUnix = (seconds: number | null | undefined) =>
  seconds ? new Date(seconds * 1000) : null;

export async function compareWithProvider(
  row: SubscriptionRow,
  client: RazorpayClient = razorpay(),
): Promise<Comparison> {
  try {
    const remote = await client.fetchSubscription(row.providerSubscriptionId);
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
  } catch (error) {
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
}
