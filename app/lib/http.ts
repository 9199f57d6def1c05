/**
 * The browser's one HTTP client (spec section 8): a time-out per attempt, and one retry of a safe
 * request after a transient failure. HTTP errors are answers, not exceptions: callers check `ok`.
 * `callFunction` (app/lib/functions-client.ts) keeps its own rules.
 */

/** Statuses that say "try again shortly": time-outs, conflicts, rate limits, gateway trouble. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([
  408, 409, 425, 429, 500, 502, 503, 504,
]);

/**
 * Only these are repeated: sending a POST, PUT, PATCH or DELETE twice could do the thing twice,
 * and a failure does not say whether the first one arrived.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

export const DEFAULT_TIMEOUT_MS = 10_000;
/** The wait before the retry when the server does not say (no or unreadable Retry-After). */
export const DEFAULT_RETRY_DELAY_MS = 400;
/** A longer Retry-After is cut to this: a person is waiting on the answer. */
export const MAX_RETRY_DELAY_MS = 10_000;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface HttpOptions extends RequestInit {
  /** Per attempt, until the response headers arrive. */
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  sleep?: Sleep;
  /** The clock an HTTP-date Retry-After is measured against. */
  now?: () => number;
}

/** Milliseconds to wait as a Retry-After value asks (delta-seconds or HTTP-date), within bounds. */
export function retryDelayMs(retryAfter: string | null, now: number = Date.now()): number {
  const value = retryAfter?.trim() ?? "";
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1_000;
  // Every HTTP-date form starts with a day name; Date.parse alone would take "-5" for a year.
  else if (/^[a-z]{3}/i.test(value) && !Number.isNaN(Date.parse(value)))
    ms = Date.parse(value) - now;
  else return DEFAULT_RETRY_DELAY_MS;
  return Math.min(MAX_RETRY_DELAY_MS, Math.max(0, ms));
}

const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** One fetch that gives up after `timeoutMs`, or as soon as the caller aborts. */
async function attempt(
  input: string | URL,
  init: RequestInit,
  fetchImpl: typeof fetch,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<Response> {
  const controller = new AbortController();
  // Forwarded by hand rather than AbortSignal.any, which older Safari and Firefox lack.
  const forward = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener("abort", forward, { once: true });
  const timer = setTimeout(
    () => controller.abort(new DOMException(`No response in ${timeoutMs} ms`, "TimeoutError")),
    timeoutMs,
  );
  try {
    return await fetchImpl(input, { ...init, signal: controller.signal });
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", forward);
  }
}

/**
 * `fetch` with the site's rules: every RequestInit option (keepalive, credentials, cache, headers,
 * body…) is passed through; a safe method is tried once more after a status in RETRY_STATUSES, a
 * network error or a time-out; the caller's abort rejects at once with its reason.
 */
export async function http(input: string | URL, options: HttpOptions = {}): Promise<Response> {
  const {
    timeoutMs = DEFAULT_TIMEOUT_MS,
    fetchImpl = globalThis.fetch.bind(globalThis),
    sleep = abortableSleep,
    now = Date.now,
    signal,
    ...init
  } = options;
  const callerSignal = signal ?? undefined;
  const retryable = SAFE_METHODS.has((init.method ?? "GET").toUpperCase());

  callerSignal?.throwIfAborted();
  for (let tries = 1; ; tries++) {
    const last = !retryable || tries > 1;
    let delay: number;
    try {
      const response = await attempt(input, init, fetchImpl, timeoutMs, callerSignal);
      if (last || !RETRY_STATUSES.has(response.status)) return response;
      delay = retryDelayMs(response.headers.get("retry-after"), now());
      // Nobody will read it: let the connection go back to the pool.
      void response.body?.cancel().catch(() => {});
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason ?? error;
      if (last) throw error;
      delay = DEFAULT_RETRY_DELAY_MS;
    }
    await sleep(delay, callerSignal);
    // An injected sleep may not watch the signal.
    callerSignal?.throwIfAborted();
  }
}
