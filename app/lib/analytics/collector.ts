import { http } from "../http";
import type { EventName } from "./catalogue";
import type { Sink } from "./client";
import { ANALYTICS_ID_COOKIE } from "./visitor-cookie";

interface QueuedEvent {
  name: EventName;
  params: Record<string, unknown>;
  at: string;
}

/** Where pages before issue 32, point 11 kept a browser-made id: removed on withdrawal too. */
const OLD_CLIENT_ID_KEY = "pinout.analytics.client-id";
const FLUSH_EVERY_MS = 5_000;
const MAX_BATCH = 20;

/**
 * Forgets this browser's analytics id when consent is withdrawn: the server's signed cookie
 * (set with the first batch after consent) is deleted at once.
 */
export function forgetClientId(): void {
  document.cookie = `${ANALYTICS_ID_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  window.localStorage.removeItem(OLD_CLIENT_ID_KEY);
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
    // The visitor's id travels as the server's signed cookie, never in the body.
    const body = JSON.stringify({ events: queue });
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
