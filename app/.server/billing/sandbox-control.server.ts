/**
 * The sandbox's own controls (not part of Razorpay's API): charge the next period at once,
 * succeeding or failing ("Charge now", "Charge now and fail it"), like "Charge this now" on
 * Razorpay's test dashboard. Nothing is armed for a later renewal. Only the admin page of a
 * sandbox deployment offers them.
 */
import { env } from "../env";
import { paymentsConfig } from "./provider.server";

export function sandboxControlsAvailable(): boolean {
  return env().PAYMENTS_PROVIDER === "sandbox";
}

export async function sandboxCharge(
  providerSubscriptionId: string,
  fail: boolean,
): Promise<string> {
  const { apiUrl, keyId, keySecret } = paymentsConfig();
  const response = await fetch(
    `${apiUrl}/control/subscriptions/${encodeURIComponent(providerSubscriptionId)}/charge`,
    {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ fail }),
      signal: AbortSignal.timeout(10_000),
    },
  );
  const body = (await response.json().catch(() => null)) as {
    error?: { description?: string };
  } | null;
  if (!response.ok)
    throw new Error(body?.error?.description ?? `sandbox answered ${response.status}`);
  return fail
    ? "The sandbox charged the next period now and the charge failed; its webhooks follow."
    : "The sandbox charged the next period; its webhooks follow.";
}
