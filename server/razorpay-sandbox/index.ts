/**
 * A Razorpay-compatible sandbox as an express Router: Razorpay's REST contract for plans,
 * subscriptions, payments, refunds and invoices; signed webhooks with retries; a checkout.js
 * with Razorpay's contract and a hosted "update payment method" page; control routes to simulate
 * renewals. Production code talks to it exactly as to api.razorpay.com, only the base URL differs.
 *
 * Mount with `app.use("/_sandbox/razorpay", sandbox.router)`, or serve it alone as a fake
 * Razorpay: `http.createServer(express().use(sandbox.router))`.
 */
import { anyRetryDue, retryDue } from "./billing";
import express from "express";
import { checkoutRouter } from "./checkout";
import { errorHandler, sendError } from "./http";
import { restRouter } from "./rest";
import { Store } from "./store";
import { SandboxError } from "./util";
import { WebhookQueue } from "./webhooks";

export interface SandboxOptions {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Where webhooks are POSTed; a function because the port is known only after listen. null/undefined return = do not deliver (events still logged). */
  webhookUrl: () => string | null | undefined;
  /** Absolute public URL of the router root (for short_url and the hosted page), e.g. http://localhost:3000/_sandbox/razorpay */
  publicUrl: () => string;
  /** JSON file to persist state (atomic write: tmp file + rename, after each change); omitted = memory only. */
  statePath?: string;
  /**
   * The account's "international payments" setting: on, plans and charges in USD, EUR and GBP
   * are taken (converted to rupees at the sandbox's fixed rates, currencies.ts); off, as on a new
   * Razorpay account, a plan in another currency is refused. Defaults to on.
   */
  internationalPayments?: boolean;
  /** Unix seconds; defaults to real time. */
  now?: () => number;
  /** Delivery retry base in ms (default 500); tests pass a small number. */
  retryBaseMs?: number;
  log?: (message: string, details?: Record<string, unknown>) => void;
}

/** How often the sandbox looks for retries that have come due. */
const RETRY_CHECK_MS = 60_000;

export interface RazorpaySandbox {
  router: express.Router;
  /** Stops webhook deliveries and their timers. */
  close(): Promise<void>;
}

export function createRazorpaySandbox(options: SandboxOptions): RazorpaySandbox {
  const log: (message: string, details?: Record<string, unknown>) => void =
    options.log ?? (() => {});
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const webhooks = new WebhookQueue({
    webhookSecret: options.webhookSecret,
    webhookUrl: options.webhookUrl,
    retryBaseMs: options.retryBaseMs ?? 500,
    log,
  });
  const store = new Store({
    statePath: options.statePath,
    international: options.internationalPayments ?? true,
    now,
    publicUrl: options.publicUrl,
    onEvent: (event) => webhooks.enqueue(event),
    log,
  });

  const router = express.Router();
  router.use(express.json({ limit: "64kb" }));
  router.use(restRouter({ keyId: options.keyId, keySecret: options.keySecret, store, webhooks }));
  router.use(checkoutRouter({ keyId: options.keyId, keySecret: options.keySecret, store }));
  router.use((_req, res) => {
    sendError(
      res,
      new SandboxError(404, {
        error: {
          code: "BAD_REQUEST_ERROR",
          description: "The requested URL was not found on the server.",
          source: "NA",
          step: "NA",
          reason: "NA",
          field: null,
        },
      }),
    );
  });
  router.use(errorHandler(log));

  // Razorpay retries a failed renewal on its own: every minute, the retries that are due.
  const retries = setInterval(() => {
    if (store.read((state, at) => anyRetryDue(state, at))) store.change(retryDue);
  }, RETRY_CHECK_MS);
  retries.unref();

  return {
    router,
    close: () => {
      clearInterval(retries);
      return webhooks.close();
    },
  };
}
