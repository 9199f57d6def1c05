import type { EventName, EventParams } from "./catalogue";

/**
 * The browser side of analytics: one typed `track()` for every event of the catalogue.
 * Events go to a sink; until consent is given (or when it is withdrawn) the sink is the no-op one
 * and nothing leaves the browser.
 */
export type Sink = (name: EventName, params: Record<string, unknown>) => void;

/**
 * Until the consent choice is known (it is read after hydration), events wait here: the first
 * page's own events (a search, a view) are not lost to effect order, and none leaves early.
 */
const MAX_PENDING = 50;
let pending: { name: EventName; params: Record<string, unknown> }[] | null = [];
let sink: Sink = (name, params) => {
  if (pending && pending.length < MAX_PENDING) pending.push({ name, params });
};

/** Installs the sink once consent is given (sending what waited), or null to drop everything. */
export function setAnalyticsSink(next: Sink | null): void {
  const waiting = pending ?? [];
  pending = null;
  sink = next ?? (() => {});
  if (next) for (const event of waiting) next(event.name, event.params);
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
