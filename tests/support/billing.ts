/** Billing through HTTP the way a browser does it, plus signed webhooks, for integration tests. */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { BROWSER_HEADERS, getWithCookies, postForm } from "./auth";
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

/** The visible text of a page: tags dropped, entities decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/**
 * The visible text of one admin section (`<section aria-labelledby="payments">`): a count of a
 * payment or an event in its own table, not also on the customer's timeline.
 */
export function sectionText(html: string, id: string): string {
  const section = new RegExp(`<section aria-labelledby="${id}"[\\s\\S]*?</section>`).exec(html);
  if (!section) throw new Error(`no section "${id}" on the page`);
  return textOf(section[0]);
}

/** The visible text of a page as the signed-in browser (`cookie`) gets it. */
export async function pageText(server: RunningTestServer, path: string, cookie: string) {
  return textOf(await (await getWithCookies(server, path, cookie)).text());
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
) {
  const response = await fetch(
    `${server.url}/_sandbox/razorpay/checkout/subscriptions/${subscriptionId}/pay`,
    {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ key_id: SANDBOX.keyId, method, outcome }),
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

/** Polls until `check` returns a value (not undefined/false), or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  ms = 20_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The signed-in browser's call for a handoff token bound to `challenge` (the answer as it is). */
export function requestHandoff(server: RunningTestServer, cookie: string, challenge: string) {
  return fetch(`${server.url}/api/functions/generateAuthRedirectToken`, {
    method: "POST",
    headers: { ...BROWSER_HEADERS, "content-type": "application/json", origin: server.url, cookie },
    body: JSON.stringify({
      data: {
        redirect_uri: "http://127.0.0.1:53682/callback",
        state: "state-1234567",
        code_challenge: challenge,
        code_challenge_method: "S256",
      },
    }),
  });
}

/** The web → app handoff a signed-in browser makes for the app: a token and the app's verifier. */
export async function desktopHandoff(
  server: RunningTestServer,
  cookie: string,
): Promise<{ token: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const handoff = await requestHandoff(server, cookie, challenge);
  if (handoff.status !== 200) throw new Error(`handoff failed: ${handoff.status}`);
  const { token } = ((await handoff.json()) as { result: { token: string } }).result;
  return { token, verifier };
}

/** The app's half: exchanges the handoff token and its verifier for device tokens. */
export function exchangeHandoff(
  server: RunningTestServer,
  handoff: { token: string; verifier: string },
  name: string,
  extra: { machine_id?: string } = {},
) {
  return fetch(`${server.url}/api/desktop/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      token: handoff.token,
      code_verifier: handoff.verifier,
      device_name: name,
      platform: "mac",
      app_version: "2.1.0",
      ...extra,
    }),
  });
}

/** Signs a desktop app in the way the app does it (handoff token, PKCE exchange); its access token. */
export async function signInDevice(
  server: RunningTestServer,
  cookie: string,
  name: string,
  extra: { machine_id?: string } = {},
): Promise<string> {
  const exchanged = await exchangeHandoff(
    server,
    await desktopHandoff(server, cookie),
    name,
    extra,
  );
  if (exchanged.status !== 200) throw new Error(`token exchange failed: ${exchanged.status}`);
  return ((await exchanged.json()) as { access_token: string }).access_token;
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
