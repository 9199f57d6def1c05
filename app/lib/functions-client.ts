import { codeForHttpStatus, type FunctionErrorCode } from "./functions-errors";

/** Spec section 9: a function call gives up after 70 s. */
export const FUNCTION_TIMEOUT_MS = 70_000;

export class FunctionsError extends Error {
  override name = "FunctionsError";
  constructor(
    readonly code: FunctionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Calls a callable function on this site with the session cookie and returns its result.
 * Failures throw FunctionsError with the spec's lowercase code and the server's message.
 */
export async function callFunction<T = unknown>(
  name: string,
  data: unknown,
  options: {
    timeoutMs?: number;
    fetchImpl?: typeof fetch;
    baseUrl?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? FUNCTION_TIMEOUT_MS);
  let response: Response;
  try {
    response = await (options.fetchImpl ?? fetch)(
      `${options.baseUrl ?? ""}/api/functions/${encodeURIComponent(name)}`,
      {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json", ...options.headers },
        body: JSON.stringify({ data }),
        signal: controller.signal,
      },
    );
  } catch (error) {
    if (controller.signal.aborted)
      throw new FunctionsError("deadline-exceeded", "deadline-exceeded");
    throw new FunctionsError("internal", error instanceof Error ? error.message : "internal");
  } finally {
    clearTimeout(timer);
  }

  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const message =
      typeof body === "object" && body !== null && "error" in body
        ? String((body as { error: { message?: unknown } }).error.message ?? "")
        : "";
    const code = codeForHttpStatus(response.status);
    throw new FunctionsError(code, message || code);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new FunctionsError("internal", "Response is not valid JSON object.");
  }
  if ("result" in body) return (body as { result: T }).result;
  if ("data" in body) return (body as { data: T }).data;
  throw new FunctionsError("internal", "Response is missing data field.");
}

/**
 * The token in a generateAuthRedirectToken response: at the top level, under `data`, or the bare
 * string (spec section 3).
 */
export function extractToken(response: unknown): string {
  if (typeof response === "string" && response !== "") return response;
  if (typeof response === "object" && response !== null) {
    const top = (response as { token?: unknown }).token;
    if (typeof top === "string" && top !== "") return top;
    const nested = (response as { data?: unknown }).data;
    if (typeof nested === "string" && nested !== "") return nested;
    if (typeof nested === "object" && nested !== null) {
      const token = (nested as { token?: unknown }).token;
      if (typeof token === "string" && token !== "") return token;
    }
  }
  throw new Error("Failed to generate custom token - no token in response");
}
