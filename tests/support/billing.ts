/** Billing through HTTP the way a browser does it, plus signed webhooks, for integration tests. */
import { createHmac, randomBytes } from "node:crypto";
import { getWithCookies, postForm } from "./auth";
import { eventually } from "./eventually";
import { pageText } from "./pages";
import type { RunningTestServer } from "./server";

/** The sandbox's fixed, documented keys (app/.server/env.ts SANDBOX_KEYS). */
export const SANDBOX = {
  keyId: "rzp_test_Sandbox000000001",
  keySecret: "sandbox_key_secret_not_for_production",
  webhookSecret: "sandbox_webhook_secret_not_for_production",
};

export const DETAILS = {
  name: "Asha Rao",
  addressLine1: "12 MG Road",
  addressLine2: "",
  city: "Bengaluru",
  postalCode: "560001",
  stateCode: "29",
  gstin: "",
};

/** A business in Germany with a VAT id: the abroad form's fields (issue 56). */
export const ABROAD_DETAILS = {
  name: "Werkbank GmbH",
  addressLine1: "Torstraße 1",
  addressLine2: "",
  city: "Berlin",
  postalCode: "10119",
  countryCode: "DE",
  taxId: "DE 123 456 789",
};

/** The sandbox's keys as Basic auth, as the site sends them to Razorpay's REST API. */
export const SANDBOX_AUTH = `Basic ${Buffer.from(`${SANDBOX.keyId}:${SANDBOX.keySecret}`).toString("base64")}`;

/** Razorpay's own records: the sandbox's REST API (`/v1/…`, `/control/…`) under the sandbox's keys. */
export async function sandboxApi<T>(
  baseUrl: string,
  path: string,
  init: RequestInit = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}/_sandbox/razorpay${path}`, {
    ...init,
    headers: { authorization: SANDBOX_AUTH, "content-type": "application/json" },
  });
  return (await response.json()) as T;
}

/** Starts checkout as the page's form does (the .data request), returning the subscription id. */
export async function startCheckout(
  server: RunningTestServer,
  cookie: string,
  plan: string,
  details: Record<string, string> = DETAILS,
  extra: Record<string, string> = {},
): Promise<{ status: number; subscriptionId: string | null; body: string }> {
  const response = await postForm(server, "/checkout.data", cookie, {
    intent: "start",
    plan,
    ...details,
    ...extra,
  });
  const body = await response.text();
  return {
    status: response.status,
    subscriptionId: /sub_[A-Za-z0-9]{14}/.exec(body)?.[0] ?? null,
    body,
  };
}

/** What the sandbox's checkout modal does on "Success" or "Failure". */
export async function sandboxPay(
  server: RunningTestServer,
  subscriptionId: string,
  outcome: "success" | "failure",
  method: "card" | "upi" = "card",
  /** Where the test card was issued: international for a charge in dollars or euros. */
  card?: "domestic" | "international",
) {
  const response = await fetch(
    `${server.url}/_sandbox/razorpay/checkout/subscriptions/${subscriptionId}/pay`,
    {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ key_id: SANDBOX.keyId, method, outcome, ...(card ? { card } : {}) }),
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export function sandboxCharge(
  baseUrl: string,
  subscriptionId: string,
  fail = false,
  keys = SANDBOX,
) {
  return fetch(`${baseUrl}/control/subscriptions/${subscriptionId}/charge`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${keys.keyId}:${keys.keySecret}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ fail }),
  });
}

/** A webhook delivery as Razorpay makes it. */
export function signedWebhook(
  body: string,
  secret: string,
  eventId = `evt_${randomBytes(7).toString("hex")}`,
) {
  return {
    eventId,
    body,
    headers: {
      "content-type": "application/json",
      "x-razorpay-signature": createHmac("sha256", secret).update(body).digest("hex"),
      "x-razorpay-event-id": eventId,
    },
  };
}

export function postWebhook(baseUrl: string, delivery: ReturnType<typeof signedWebhook>) {
  return fetch(`${baseUrl}/api/webhooks/razorpay`, {
    method: "POST",
    headers: delivery.headers,
    body: delivery.body,
  });
}

/**
 * Buys a plan through the sandbox checkout as the page does (start, pay, verify) and waits until
 * the account shows Pro; the Razorpay subscription id.
 */
export async function buyThroughSandbox(
  server: RunningTestServer,
  cookie: string,
  plan = "pro-monthly",
): Promise<string> {
  const started = await startCheckout(server, cookie, plan);
  if (!started.subscriptionId) throw new Error(`checkout did not start: ${started.status}`);
  const paid = await sandboxPay(server, started.subscriptionId, "success");
  await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
  await eventually(
    async () => /Plan Pro/.test(await pageText(server, "/account", cookie)),
    20_000,
    "Pro on /account",
  );
  return started.subscriptionId;
}

/** The hidden fields of the self-refund confirmation (`/account/subscription?refund=review`). */
export function selfRefundConfirmation(html: string): { paymentId: string; key: string } {
  return {
    paymentId: /name="paymentId" value="(pay_\w+)"/.exec(html)?.[1] ?? "",
    key: /name="key" value="(rf_[\w-]+)"/.exec(html)?.[1] ?? "",
  };
}

/** Opens the self-refund review and confirms it, as the customer does; the action's answer. */
export async function requestSelfRefund(
  server: RunningTestServer,
  cookie: string,
): Promise<Response> {
  const review = await getWithCookies(server, "/account/subscription?refund=review", cookie);
  return postForm(server, "/account/subscription", cookie, {
    intent: "request-refund",
    ...selfRefundConfirmation(await review.text()),
  });
}

/**
 * "Cancel my subscription" in the cancellation step (issue 59): a person's at
 * /account/subscription/cancel, or a team's at `{team path}/cancel`. Resolves with the answer's
 * status, where it leads, and that page's text (the notice saying what changed).
 */
export async function cancelThroughFlow(
  server: RunningTestServer,
  cookie: string,
  options: { teamPath?: string; reason?: string; details?: string } = {},
): Promise<{ status: number; location: string | null; page: string }> {
  const path = options.teamPath ? `${options.teamPath}/cancel` : "/account/subscription/cancel";
  const answer = await postForm(server, path, cookie, {
    intent: "cancel",
    reason: options.reason ?? "",
    details: options.details ?? "",
  });
  const location = answer.headers.get("location");
  return {
    status: answer.status,
    location,
    page: location && answer.status < 400 ? await pageText(server, location, cookie) : "",
  };
}
