import { describe, expect, it } from "vitest";
import { callFunction, extractToken, FunctionsError } from "./functions-client";

function fakeFetch(status: number, body: string | null): typeof fetch {
  return async () =>
    new Response(body, { status, headers: { "content-type": "application/json" } });
}

async function failure(promise: Promise<unknown>): Promise<FunctionsError> {
  try {
    await promise;
  } catch (error) {
    return error as FunctionsError;
  }
  throw new Error("did not fail");
}

describe("extractToken", () => {
  it("reads the token at the top level, under data, or as the bare string", () => {
    expect(extractToken({ token: "top" })).toBe("top");
    expect(extractToken({ data: { token: "nested" } })).toBe("nested");
    expect(extractToken({ data: "bare-in-data" })).toBe("bare-in-data");
    expect(extractToken("bare")).toBe("bare");
  });

  it("fails with the spec's message when there is no token", () => {
    for (const response of [{}, { data: {} }, null, "", { token: 42 }]) {
      expect(() => extractToken(response)).toThrow(
        "Failed to generate custom token - no token in response",
      );
    }
  });
});

describe("callFunction", () => {
  it("returns the result", async () => {
    await expect(
      callFunction("f", {}, { fetchImpl: fakeFetch(200, '{"result":{"token":"t"}}') }),
    ).resolves.toEqual({ token: "t" });
  });

  it.each([
    [400, "invalid-argument"],
    [401, "unauthenticated"],
    [403, "permission-denied"],
    [404, "not-found"],
    [409, "aborted"],
    [429, "resource-exhausted"],
    [499, "cancelled"],
    [500, "internal"],
    [501, "unimplemented"],
    [503, "unavailable"],
    [504, "deadline-exceeded"],
    [418, "internal"],
  ])("maps HTTP %i to %s with the server's message", async (status, code) => {
    const error = await failure(
      callFunction(
        "f",
        {},
        {
          fetchImpl: fakeFetch(status, JSON.stringify({ error: { status: "X", message: "why" } })),
        },
      ),
    );
    expect(error).toBeInstanceOf(FunctionsError);
    expect(error.code).toBe(code);
    expect(error.message).toBe("why");
  });

  it("maps a network failure (status 0) to internal", async () => {
    const error = await failure(
      callFunction(
        "f",
        {},
        { fetchImpl: async () => Promise.reject(new TypeError("Failed to fetch")) },
      ),
    );
    expect(error.code).toBe("internal");
  });

  it("uses the spec's messages for malformed responses", async () => {
    expect(
      (await failure(callFunction("f", {}, { fetchImpl: fakeFetch(200, "[1,2]") }))).message,
    ).toBe("Response is not valid JSON object.");
    expect(
      (await failure(callFunction("f", {}, { fetchImpl: fakeFetch(200, "not json") }))).message,
    ).toBe("Response is not valid JSON object.");
    expect(
      (await failure(callFunction("f", {}, { fetchImpl: fakeFetch(200, '{"other":1}') }))).message,
    ).toBe("Response is missing data field.");
  });

  it("gives up after the timeout", async () => {
    const never: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () =>
          reject(new DOMException("aborted", "AbortError")),
        ),
      );
    const error = await failure(callFunction("f", {}, { fetchImpl: never, timeoutMs: 20 }));
    expect(error.code).toBe("deadline-exceeded");
  });
});
