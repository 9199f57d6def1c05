/**
 * Test helpers for the payment sandbox's own tests (kept out of server/, which the build ships):
 * the sandbox on an ephemeral port with a controllable clock, and a webhook
 * receiver that records what arrives and can answer 500 for the first N requests.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { createRazorpaySandbox, type SandboxOptions } from "../../server/razorpay-sandbox";

export const KEY_ID = "rzp_test_Sandbox000000001";
export const KEY_SECRET = "test_key_secret";
export const WEBHOOK_SECRET = "test_webhook_secret";
/** 2026-01-31 10:00:00 UTC: a month later clamps to 28 February. */
export const T0 = Date.UTC(2026, 0, 31, 10, 0, 0) / 1000;

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

async function stop(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answer 500 to the next `count` requests. */
  failNext(count: number): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let failures = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (failures > 0) {
        failures -= 1;
        res.statusCode = 500;
        res.end("nope");
        return;
      }
      res.end("ok");
    });
  });
  const url = await listen(server);
  return {
    url: `${url}/webhooks/razorpay`,
    received,
    failNext: (count) => {
      failures = count;
    },
    close: () => stop(server),
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // JSON of any shape: tests assert on it or parse it with the product's zod schemas.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface Harness {
  base: string;
  clock: { now: number };
  receiver: Receiver;
  /** Calls the sandbox; `body` strings go out as-is; Basic auth unless `auth: false`. */
  api(
    method: string,
    path: string,
    body?: unknown,
    options?: { auth?: boolean | string },
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

export async function startHarness(
  extra: Partial<SandboxOptions> & { receiver?: Receiver } = {},
): Promise<Harness> {
  const { receiver: given, ...options } = extra;
  const receiver = given ?? (await startReceiver());
  const clock = { now: T0 };
  let base = "";
  const sandbox = createRazorpaySandbox({
    keyId: KEY_ID,
    keySecret: KEY_SECRET,
    webhookSecret: WEBHOOK_SECRET,
    webhookUrl: () => receiver.url,
    publicUrl: () => base,
    now: () => clock.now,
    retryBaseMs: 10,
    ...options,
  });
  const server = http.createServer(express().use(sandbox.router));
  base = await listen(server);
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString("base64")}`;
  return {
    base,
    clock,
    receiver,
    async api(method, path, body, { auth = true } = {}) {
      const headers: Record<string, string> = {};
      if (auth !== false)
        headers.authorization = basic(auth === true ? `${KEY_ID}:${KEY_SECRET}` : auth);
      if (body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        body:
          body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    async close() {
      await sandbox.close();
      await stop(server);
      if (!given) await receiver.close();
    },
  };
}

/** Polls `check` until it returns a truthy value (bounded; fails the test after `ms`). */
export async function waitFor<T>(check: () => T | Promise<T>, ms = 3000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Webhook events received so far, parsed, in arrival order. */
export function events(receiver: Receiver): { event: string; id: string; body: string }[] {
  return receiver.received.map((r) => ({
    event: (JSON.parse(r.body) as { event: string }).event,
    id: String(r.headers["x-razorpay-event-id"]),
    body: r.body,
  }));
}

/** A monthly ₹699 plan and a subscription on it, ready for checkout. */
export async function planAndSubscription(
  h: Harness,
  subscription: Record<string, unknown> = {},
  plan: Record<string, unknown> = {},
) {
  const created = await h.api("POST", "/v1/plans", {
    period: "monthly",
    interval: 1,
    item: { name: "Pinout Pro", amount: 69900, currency: "INR" },
    ...plan,
  });
  const sub = await h.api("POST", "/v1/subscriptions", {
    plan_id: created.json.id,
    total_count: 12,
    ...subscription,
  });
  return { planId: String(created.json.id), subId: String(sub.json.id), sub: sub.json };
}

export async function pay(
  h: Harness,
  subId: string,
  outcome: "success" | "failure" = "success",
  extra: Record<string, unknown> = {},
) {
  return h.api(
    "POST",
    `/checkout/subscriptions/${subId}/pay`,
    { key_id: KEY_ID, method: "card", outcome, ...extra },
    { auth: false },
  );
}
