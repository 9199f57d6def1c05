/**
 * Webhook delivery: one event at a time in creation order, signed like Razorpay's
 * (`X-Razorpay-Signature` = hex HMAC-SHA256 of the exact body with the webhook secret), retried
 * with exponential backoff on any non-2xx or network error. Memory only.
 */
import type { EventEnvelope } from "./entities";
import { hmacHex, newId } from "./util";

export const MAX_ATTEMPTS = 8;
const ATTEMPT_TIMEOUT_MS = 5_000;

export interface Delivery {
  id: string;
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  last_status: number | null;
  created_at: number;
  /** The exact bytes sent on every attempt. */
  body: string;
}

export interface WebhookQueueOptions {
  webhookSecret: string;
  webhookUrl: () => string | null | undefined;
  retryBaseMs: number;
  log: (message: string, details?: Record<string, unknown>) => void;
}

export class WebhookQueue {
  private readonly items: Delivery[] = [];
  private busy = false;
  private closed = false;
  /** Deliveries wait while held (the control route), as if the endpoint were unreachable. */
  private holding = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly abort = new AbortController();
  private inflight: Promise<void> = Promise.resolve();

  constructor(private readonly options: WebhookQueueOptions) {}

  /** Queues an event; delivery starts after the current tick, never blocking the caller. */
  enqueue(envelope: EventEnvelope): Delivery {
    const delivery: Delivery = {
      id: newId("evt"),
      event: envelope.event,
      status: "pending",
      attempts: 0,
      last_status: null,
      created_at: envelope.created_at,
      body: JSON.stringify(envelope),
    };
    this.items.push(delivery);
    this.options.log("webhook event queued", { id: delivery.id, event: delivery.event });
    this.kick();
    return delivery;
  }

  /** Holds deliveries (they stay pending), or releases them to go out in order. */
  hold(on: boolean): void {
    this.holding = on;
    if (!on) this.kick();
  }

  /** The log; a delivery waiting while held shows as "held" (nothing is on its way). */
  list(): (Omit<Delivery, "body" | "status"> & { status: Delivery["status"] | "held" })[] {
    return this.items.map(({ body: _body, ...rest }) => ({
      ...rest,
      status: this.holding && rest.status === "pending" ? "held" : rest.status,
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.inflight;
  }

  private kick(): void {
    if (this.closed || this.busy || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inflight = this.pump();
    }, 0);
    this.timer.unref();
  }

  private async pump(): Promise<void> {
    if (this.closed || this.busy || this.holding) return;
    const next = this.items.find((item) => item.status === "pending");
    if (!next) return;
    this.busy = true;
    let retryIn: number | null = null;
    try {
      const url = this.options.webhookUrl();
      if (!url) {
        next.status = "failed";
        this.options.log("webhook not delivered: no webhook URL", {
          id: next.id,
          event: next.event,
        });
      } else {
        next.attempts += 1;
        const ok = await this.attempt(next, url);
        if (ok) {
          next.status = "delivered";
        } else if (next.attempts >= MAX_ATTEMPTS) {
          next.status = "failed";
          this.options.log("webhook delivery gave up", { id: next.id, attempts: next.attempts });
        } else {
          retryIn = this.options.retryBaseMs * 2 ** (next.attempts - 1);
        }
      }
    } finally {
      this.busy = false;
    }
    if (this.closed) return;
    if (retryIn === null) {
      this.kick();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inflight = this.pump();
    }, retryIn);
    this.timer.unref();
  }

  private async attempt(delivery: Delivery, url: string): Promise<boolean> {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Razorpay-Signature": hmacHex(this.options.webhookSecret, delivery.body),
          "x-razorpay-event-id": delivery.id,
          "User-Agent": "Razorpay-Webhook/v1",
        },
        body: delivery.body,
        signal: AbortSignal.any([AbortSignal.timeout(ATTEMPT_TIMEOUT_MS), this.abort.signal]),
      });
      delivery.last_status = response.status;
      await response.arrayBuffer().catch(() => undefined);
      this.options.log("webhook attempt", {
        id: delivery.id,
        event: delivery.event,
        attempt: delivery.attempts,
        status: response.status,
      });
      return response.ok;
    } catch (error) {
      delivery.last_status = null;
      this.options.log("webhook attempt failed", {
        id: delivery.id,
        event: delivery.event,
        attempt: delivery.attempts,
        error: String(error),
      });
      return false;
    }
  }
}
