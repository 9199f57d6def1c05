/**
 * The browser side of analytics: one `track()` for every event of the catalogue.
 * Events go to a sink; until the first-party collector is wired in, the sink drops them.
 */

export type ExceptionParams = {
  error_type: "javascript_error" | "unhandled_promise_rejection" | "chunk_load_error" | string;
  description: string;
  location: string;
  fatal?: boolean;
};

export interface EventParams {
  exception: ExceptionParams;
  [name: string]: Record<string, unknown>;
}

export type Sink = (name: string, params: Record<string, unknown>) => void;

const noopSink: Sink = () => {};
let sink: Sink = noopSink;

export function setAnalyticsSink(next: Sink | null): void {
  sink = next ?? noopSink;
}

export function track<N extends keyof EventParams & string>(name: N, params: EventParams[N]): void {
  if (typeof window === "undefined") return;
  try {
    sink(name, params);
  } catch (error) {
    // Analytics must never break the page, but a broken sink is still worth seeing in devtools.
    console.warn("analytics sink failed", error);
  }
}
