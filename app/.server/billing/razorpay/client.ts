/**
 * A small typed client for the Razorpay REST calls this product makes (docs/decisions/0012).
 * The same code talks to api.razorpay.com, the built-in sandbox and the fake server in tests:
 * only the base URL differs.
 */
import { type z } from "zod";
import type { Currency } from "~/lib/money";
import { boundedSignal } from "../../jobs/signal";
import {
  collectionSchema,
  errorBodySchema,
  invoiceSchema,
  disputeSchema,
  paymentSchema,
  planSchema,
  refundSchema,
  subscriptionSchema,
  type RazorpayInvoice,
  type RazorpayDispute,
  type RazorpayPayment,
  type RazorpayPlan,
  type RazorpayRefund,
  type RazorpaySubscription,
} from "./types";

const TIMEOUT_MS = 10_000;

/** A refusal or failure from Razorpay, with its own code and description. */
export class RazorpayError extends Error {
  override name = "RazorpayError";
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly field: string | null = null,
  ) {
    super(`Razorpay ${status} ${code}: ${description}`);
  }
  /** 4xx: Razorpay refused the request itself; retrying the same request will not help. */
  get refused(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

export interface RazorpayClientOptions {
  /** Without the trailing /v1, e.g. https://api.razorpay.com */
  baseUrl: string;
  keyId: string;
  keySecret: string;
  fetch?: typeof fetch;
}

export interface CreatePlanInput {
  period: "monthly" | "yearly";
  interval: number;
  /** `amount` in the currency's minor unit; a currency other than INR needs international payments. */
  item: { name: string; amount: number; currency: Currency; description?: string };
  notes?: Record<string, string>;
}

export interface CreateSubscriptionInput {
  plan_id: string;
  total_count: number;
  quantity?: number;
  start_at?: number;
  expire_by?: number;
  customer_notify?: 0 | 1;
  notes?: Record<string, string>;
  /** An offer made in Razorpay's Dashboard: the discount a coupon gives (decision 0052). */
  offer_id?: string;
  /**
   * An upfront amount, charged as the authentication transaction (with a future `start_at`,
   * instead of the refunded token): a team's seats added for the rest of a cycle (decision 0054).
   */
  addons?: { item: { name: string; amount: number; currency: Currency } }[];
}

export function createRazorpayClient(options: RazorpayClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, "");
  const authorization = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString("base64")}`;
  const doFetch = options.fetch ?? fetch;

  async function call<T extends z.ZodType>(
    method: "GET" | "POST" | "PATCH",
    path: string,
    schema: T,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<z.infer<T>> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...extraHeaders,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // Its own time-out, and the running job's limit when a job makes the call.
        signal: boundedSignal(TIMEOUT_MS),
      });
    } catch (error) {
      throw new RazorpayError(
        0,
        "NETWORK_ERROR",
        `Razorpay could not be reached: ${String(error)}`,
      );
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new RazorpayError(response.status, "BAD_RESPONSE", "Razorpay answered with non-JSON");
    }
    if (!response.ok) {
      const parsed = errorBodySchema.safeParse(json);
      throw parsed.success
        ? new RazorpayError(
            response.status,
            parsed.data.error.code,
            parsed.data.error.description,
            parsed.data.error.field ?? null,
          )
        : new RazorpayError(response.status, "HTTP_ERROR", `HTTP ${response.status}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new RazorpayError(
        response.status,
        "BAD_RESPONSE",
        `unexpected ${method} ${path} response: ${parsed.error.issues[0]?.message ?? "invalid"}`,
      );
    return parsed.data;
  }

  const id = (value: string) => encodeURIComponent(value);

  return {
    createPlan: (input: CreatePlanInput): Promise<RazorpayPlan> =>
      call("POST", "/v1/plans", planSchema, input),
    fetchPlan: (planId: string): Promise<RazorpayPlan> =>
      call("GET", `/v1/plans/${id(planId)}`, planSchema),
    createSubscription: (input: CreateSubscriptionInput): Promise<RazorpaySubscription> =>
      call("POST", "/v1/subscriptions", subscriptionSchema, input),
    fetchSubscription: (subscriptionId: string): Promise<RazorpaySubscription> =>
      call("GET", `/v1/subscriptions/${id(subscriptionId)}`, subscriptionSchema),
    /** A subscription invoice: its billing_start/billing_end are the period a payment paid for. */
    fetchInvoice: (invoiceId: string): Promise<RazorpayInvoice> =>
      call("GET", `/v1/invoices/${id(invoiceId)}`, invoiceSchema),
    fetchDispute: (disputeId: string): Promise<RazorpayDispute> =>
      call("GET", `/v1/disputes/${id(disputeId)}`, disputeSchema),
    /** At cycle end the subscription stays active and shows a scheduled change until then. */
    cancelSubscription: (
      subscriptionId: string,
      atCycleEnd: boolean,
    ): Promise<RazorpaySubscription> =>
      call("POST", `/v1/subscriptions/${id(subscriptionId)}/cancel`, subscriptionSchema, {
        cancel_at_cycle_end: atCycleEnd ? 1 : 0,
      }),
    /** Stops charging now; only an `active` subscription pauses. */
    pauseSubscription: (subscriptionId: string): Promise<RazorpaySubscription> =>
      call("POST", `/v1/subscriptions/${id(subscriptionId)}/pause`, subscriptionSchema, {
        pause_at: "now",
      }),
    /** Charging again from the end of the period already paid. */
    resumeSubscription: (subscriptionId: string): Promise<RazorpaySubscription> =>
      call("POST", `/v1/subscriptions/${id(subscriptionId)}/resume`, subscriptionSchema, {
        resume_at: "now",
      }),
    cancelScheduledChanges: (subscriptionId: string): Promise<RazorpaySubscription> =>
      call(
        "POST",
        `/v1/subscriptions/${id(subscriptionId)}/cancel_scheduled_changes`,
        subscriptionSchema,
      ),
    fetchPayment: (paymentId: string): Promise<RazorpayPayment> =>
      call("GET", `/v1/payments/${id(paymentId)}`, paymentSchema),
    /**
     * `idempotencyKey` goes in Razorpay's `X-Refund-Idempotency` header: a retry with the same key
     * and the same body gets the refund the first request made, never a second refund.
     */
    refundPayment: (
      paymentId: string,
      input: { amount: number; receipt?: string; notes?: Record<string, string> },
      idempotencyKey?: string,
    ): Promise<RazorpayRefund> =>
      call(
        "POST",
        `/v1/payments/${id(paymentId)}/refund`,
        refundSchema,
        { ...input, speed: "normal" },
        idempotencyKey ? { "x-refund-idempotency": idempotencyKey } : {},
      ),
    listInvoices: async (subscriptionId: string): Promise<RazorpayInvoice[]> =>
      (
        await call(
          "GET",
          `/v1/invoices?subscription_id=${id(subscriptionId)}`,
          collectionSchema(invoiceSchema),
        )
      ).items,
  };
}

export type RazorpayClient = ReturnType<typeof createRazorpayClient>;
