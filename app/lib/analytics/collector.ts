import { http } from "../http";
import type { EventName } from "./catalogue";
import type { Sink } from "./client";

interface QueuedEvent {
  name: EventName;
  params: Record<string, unknown>;
  at: string;
}

const CLIENT_ID_KEY = "pinout.analytics.client-id";
const FLUSH_EVERY_MS = 5_000;
const MAX_BATCH = 20;

/** A random id for this browser, created only after consent and deleted on withdrawal. */
export function clientId(): string {
  let id = window.localStorage.getItem(CLIENT_ID_KEY);
  if (!id) {
    id = crypto.randomUUID();
    window.localStorage.setItem(CLIENT_ID_KEY, id);
  }
  return id;
}

export function forgetClientId(): void {
  window.localStorage.removeItem(CLIENT_ID_KEY);
}

/**
 * The first-party sink: events are queued and sent in batches with sendBeacon (which survives
 * the page closing) to /api/events. `stop()` drops whatever is still queued.
 */
export function createCollector(endpoint = "/api/events"): { sink: Sink; stop(): void } {
  let queue: QueuedEvent[] = [];
  let stopped = false;

  const flush = () => {
    if (stopped || queue.length === 0) return;
    const body = JSON.stringify({ clientId: clientId(), events: queue });
    queue = [];
    const blob = new Blob([body], { type: "application/json" });
    if (!navigator.sendBeacon?.(endpoint, blob)) {
      // A POST: http() never repeats it, so an event is never counted twice.
      void http(endpoint, {
        method: "POST",
        body,
        keepalive: true,
        headers: { "content-type": "application/json" },
      }).catch(() => {});
    }
  };
  const onHide = () => {
    if (document.visibilityState === "hidden") flush();
  };
  const timer = window.setInterval(flush, FLUSH_EVERY_MS);
  document.addEventListener("visibilitychange", onHide);
  window.addEventListener("pagehide", flush);

  return {
    sink(name, params) {
      if (stopped) return;
      queue.push({ name, params, at: new Date().toISOString() });
      if (queue.length >= MAX_BATCH) flush();
    },
    stop() {
      stopped = true;
      queue = [];
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", flush);
    },
  };
}
