/**
 * Which Razorpay this process talks to, and how. The sandbox is Razorpay at another address:
 * nothing in the billing code asks which one it is (docs/decisions/0012).
 */
import { env } from "../env";
import { createRazorpayClient, type RazorpayClient } from "./razorpay/client";

export const SANDBOX_MOUNT = "/_sandbox/razorpay";
const RAZORPAY_API = "https://api.razorpay.com";
const RAZORPAY_CHECKOUT = "https://checkout.razorpay.com/v1/checkout.js";

let selfUrl: string | undefined;

/** The server's own loopback address, known once it listens (the sandbox lives on it). */
export function setSelfUrl(url: string): void {
  selfUrl = url;
  client = undefined;
}

function ownBaseUrl(): string {
  if (selfUrl) return selfUrl;
  const { HOST, PORT } = env();
  const host =
    HOST === "0.0.0.0" || HOST === "::" ? "127.0.0.1" : HOST.includes(":") ? `[${HOST}]` : HOST;
  return `http://${host}:${PORT}`;
}

export interface PaymentsConfig {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  apiUrl: string;
  checkoutScriptUrl: string;
  /** Test keys (the sandbox's included): pages say "Test mode" so nobody mistakes it for a sale. */
  testMode: boolean;
}

export function paymentsConfig(): PaymentsConfig {
  const config = env();
  const sandbox = config.PAYMENTS_PROVIDER === "sandbox";
  return {
    keyId: config.RAZORPAY_KEY_ID,
    keySecret: config.RAZORPAY_KEY_SECRET,
    webhookSecret: config.RAZORPAY_WEBHOOK_SECRET,
    apiUrl: config.RAZORPAY_API_URL ?? (sandbox ? `${ownBaseUrl()}${SANDBOX_MOUNT}` : RAZORPAY_API),
    checkoutScriptUrl:
      config.RAZORPAY_CHECKOUT_URL ??
      (sandbox ? `${SANDBOX_MOUNT}/checkout.js` : RAZORPAY_CHECKOUT),
    testMode: config.RAZORPAY_KEY_ID.startsWith("rzp_test_"),
  };
}

let client: RazorpayClient | undefined;

/** The process's Razorpay client. */
export function razorpay(): RazorpayClient {
  if (!client) {
    const { apiUrl, keyId, keySecret } = paymentsConfig();
    client = createRazorpayClient({ baseUrl: apiUrl, keyId, keySecret });
  }
  return client;
}
