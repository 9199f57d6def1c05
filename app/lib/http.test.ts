import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_DELAY_MS,
  http,
  type HttpOptions,
  MAX_RETRY_DELAY_MS,
  RETRY_STATUSES,
  retryDelayMs,
  SAFE_METHODS,
} from "./http";

const LISTED = [408, 409, 425, 429, 500, 502, 503, 504];
const SAFE = ["GET", "HEAD", "OPTIONS"];
const UNSAFE = ["POST", "PUT", "PATCH", "DELETE"];
const NULL_BODY = new Set([204, 205, 304]);

interface Call {
  input: string | URL | Request;
  init: RequestInit | undefined;
}

/** A fetch that answers each call with the next of `answers` and records what it was given. */
function scripted(...answers: Array<Response | Error | "hang">) {
  const calls: Call[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    calls.push({ input, init });
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    if (answer === "hang") {
      return new Promise((_, reject) => {
        const signal = init?.signal;
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    }
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer!);
  };
  return { calls, fetchImpl };
}

function response(status: number, headers: Record<string, string> = {}, body = `s${status}`) {
  return new Response(NULL_BODY.has(status) ? null : body, { status, headers });
}

/** A sleep that returns at once and records what it was asked to wait. */
function recordingSleep() {
  const delays: number[] = [];
  const sleep: HttpOptions["sleep"] = async (ms) => {
    delays.push(ms);
  };
  return { delays, sleep };
}

describe("http retries", () => {
  const table = LISTED.flatMap((status) =>
    [...SAFE, ...UNSAFE].map((method) => [status, method] as const),
  );

  it.each(table)("%i on %s", async (status, method) => {
    const { calls, fetchImpl } = scripted(response(status), response(200, {}, "second"));
    const { delays, sleep } = recordingSleep();
    const result = await http("/x", { method, fetchImpl, sleep });
    if (SAFE.includes(method)) {
      expect(calls).toHaveLength(2);
      expect(result.status).toBe(200);
      expect(await result.text()).toBe("second");
      expect(delays).toEqual([DEFAULT_RETRY_DELAY_MS]);
    } else {
      expect(calls).toHaveLength(1);
      expect(result.status).toBe(status);
      expect(delays).toEqual([]);
    }
  });

  it("retries exactly once: a second failure is the answer", async () => {
    const { calls, fetchImpl } = scripted(response(503), response(502), response(200));
    const { sleep } = recordingSleep();
    const result = await http("/x", { fetchImpl, sleep });
    expect(calls).toHaveLength(2);
    expect(result.status).toBe(502);
  });

  it.each([200, 201, 204, 301, 304, 400, 401, 403, 404, 410, 422, 501, 505])(
    "never retries %i",
    async (status) => {
      for (const method of [...SAFE, ...UNSAFE]) {
        const { calls, fetchImpl } = scripted(response(status), response(200));
        const result = await http("/x", { method, fetchImpl, sleep: recordingSleep().sleep });
        expect(calls).toHaveLength(1);
        expect(result.status).toBe(status);
      }
    },
  );

  it("any status × any method: one retry exactly for a listed status on a safe method", async () => {
    const methods = [...SAFE, ...UNSAFE, "get", "post", "Delete"];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 200, max: 599 }),
        fc.constantFrom(...methods),
        async (status, method) => {
          const { calls, fetchImpl } = scripted(response(status), response(299, {}, "second"));
          const result = await http("/x", { method, fetchImpl, sleep: recordingSleep().sleep });
          const retried = SAFE_METHODS.has(method.toUpperCase()) && RETRY_STATUSES.has(status);
          expect(calls).toHaveLength(retried ? 2 : 1);
          expect(result.status).toBe(retried ? 299 : status);
        },
      ),
    );
  });

  it("defaults to GET when no method is given", async () => {
    const { calls, fetchImpl } = scripted(response(500), response(200));
    await http("/x", { fetchImpl, sleep: recordingSleep().sleep });
    expect(calls).toHaveLength(2);
  });
});

describe("http network errors", () => {
  it.each(SAFE)("%s retries once after fetch rejects", async (method) => {
    const { calls, fetchImpl } = scripted(new TypeError("Failed to fetch"), response(200));
    const { delays, sleep } = recordingSleep();
    const result = await http("/x", { method, fetchImpl, sleep });
    expect(calls).toHaveLength(2);
    expect(result.status).toBe(200);
    expect(delays).toEqual([DEFAULT_RETRY_DELAY_MS]);
  });

  it("rejects when the retry fails too", async () => {
    const { calls, fetchImpl } = scripted(new TypeError("first"), new TypeError("second"));
    await expect(http("/x", { fetchImpl, sleep: recordingSleep().sleep })).rejects.toThrow(
      "second",
    );
    expect(calls).toHaveLength(2);
  });

  it.each(UNSAFE)("%s rejects at once", async (method) => {
    const { calls, fetchImpl } = scripted(new TypeError("Failed to fetch"), response(200));
    await expect(http("/x", { method, fetchImpl, sleep: recordingSleep().sleep })).rejects.toThrow(
      "Failed to fetch",
    );
    expect(calls).toHaveLength(1);
  });
});

describe("Retry-After", () => {
  const NOW = Date.parse("2026-03-01T10:00:00Z");

  it("waits the seconds it asks for", async () => {
    const { fetchImpl } = scripted(response(429, { "Retry-After": "3" }), response(200));
    const { delays, sleep } = recordingSleep();
    await http("/x", { fetchImpl, sleep });
    expect(delays).toEqual([3_000]);
  });

  it("waits until the date it names", async () => {
    const date = new Date(NOW + 4_000).toUTCString();
    const { fetchImpl } = scripted(response(503, { "Retry-After": date }), response(200));
    const { delays, sleep } = recordingSleep();
    await http("/x", { fetchImpl, sleep, now: () => NOW });
    expect(delays).toEqual([4_000]);
  });

  it.each([
    [null, DEFAULT_RETRY_DELAY_MS],
    ["", DEFAULT_RETRY_DELAY_MS],
    ["soon", DEFAULT_RETRY_DELAY_MS],
    ["-5", DEFAULT_RETRY_DELAY_MS],
    ["1.5", DEFAULT_RETRY_DELAY_MS],
    ["0", 0],
    [" 2 ", 2_000],
    ["10", 10_000],
    ["3600", MAX_RETRY_DELAY_MS],
    [new Date(NOW - 60_000).toUTCString(), 0],
    ["Sunday, 01-Mar-26 10:00:05 GMT", 5_000],
    [new Date(NOW + 3_600_000).toUTCString(), MAX_RETRY_DELAY_MS],
  ])("%j → %i ms", (value, expected) => {
    expect(retryDelayMs(value, NOW)).toBe(expected);
  });

  it("is always between 0 and the cap", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.nat().map(String)), fc.nat(), (value, now) => {
        const ms = retryDelayMs(value, now);
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
      }),
    );
  });
});

describe("time-outs and aborts", () => {
  it("aborts an attempt that takes too long, and tries a GET once more", async () => {
    const { calls, fetchImpl } = scripted("hang", response(200));
    const result = await http("/x", { fetchImpl, timeoutMs: 20, sleep: recordingSleep().sleep });
    expect(calls).toHaveLength(2);
    expect(calls[0]!.init?.signal?.aborted).toBe(true);
    expect((calls[0]!.init?.signal?.reason as DOMException).name).toBe("TimeoutError");
    expect(result.status).toBe(200);
  });

  it("rejects with the time-out when the retry times out too", async () => {
    const { calls, fetchImpl } = scripted("hang");
    await expect(
      http("/x", { fetchImpl, timeoutMs: 10, sleep: recordingSleep().sleep }),
    ).rejects.toMatchObject({ name: "TimeoutError" });
    expect(calls).toHaveLength(2);
  });

  it("does not retry a POST that timed out", async () => {
    const { calls, fetchImpl } = scripted("hang", response(200));
    await expect(
      http("/x", { method: "POST", fetchImpl, timeoutMs: 10, sleep: recordingSleep().sleep }),
    ).rejects.toMatchObject({ name: "TimeoutError" });
    expect(calls).toHaveLength(1);
  });

  it("rejects at once with the caller's AbortError, without a retry", async () => {
    const { calls, fetchImpl } = scripted("hang", response(200));
    const controller = new AbortController();
    const pending = http("/x", { fetchImpl, signal: controller.signal, timeoutMs: 60_000 });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(calls).toHaveLength(1);
  });

  it("does not start when the caller has already aborted", async () => {
    const { calls, fetchImpl } = scripted("hang");
    const controller = new AbortController();
    controller.abort();
    await expect(http("/x", { fetchImpl, signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(calls).toHaveLength(0);
  });

  it("stops waiting for the retry when the caller aborts meanwhile", async () => {
    const { calls, fetchImpl } = scripted(response(503, { "Retry-After": "5" }), response(200));
    const controller = new AbortController();
    const pending = http("/x", { fetchImpl, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(calls).toHaveLength(1);
  });

  it("waits for real when no sleep is injected", async () => {
    const { calls, fetchImpl } = scripted(response(503, { "Retry-After": "0" }), response(200));
    expect((await http("/x", { fetchImpl })).status).toBe(200);
    expect(calls).toHaveLength(2);
  });
});

describe("passing options through", () => {
  it("hands every RequestInit option to fetch, with its own signal", async () => {
    const { calls, fetchImpl } = scripted(response(202));
    await http("/api/events", {
      method: "POST",
      body: "{}",
      keepalive: true,
      credentials: "same-origin",
      cache: "no-store",
      headers: { "content-type": "application/json" },
      fetchImpl,
    });
    expect(calls[0]!.input).toBe("/api/events");
    expect(calls[0]!.init).toMatchObject({
      method: "POST",
      body: "{}",
      keepalive: true,
      credentials: "same-origin",
      cache: "no-store",
      headers: { "content-type": "application/json" },
    });
    expect(calls[0]!.init?.signal).toBeInstanceOf(AbortSignal);
    expect(calls[0]!.init).not.toHaveProperty("fetchImpl");
    expect(calls[0]!.init).not.toHaveProperty("timeoutMs");
  });
});
