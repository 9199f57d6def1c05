import type { EventName, EventParams } from "./catalogue";

/**
 * The browser side of analytics: one typed `track()` for every event of the catalogue.
 * Events go to a sink; until consent is given (or when it is withdrawn) the sink is the no-op one
 * and nothing leaves the browser.
 */
export type Sink = (name: EventName, params: Record<string, unknown>) => void;

const noopSink: Sink = () => {};
let sink: Sink = noopSink;

export function setAnalyticsSink(next: Sink | null): void {
  sink = next ?? noopSink;
}

export function track<N extends EventName>(name: N, params: EventParams<N>): void {
  if (typeof window === "undefined") return;
  try {
    sink(name, params as Record<string, unknown>);
  } catch (error) {
    // Analytics must never break the page, but a broken sink is still worth seeing in devtools.
    console.warn("analytics sink failed", error);
  }
}
