import type { z } from "zod";
import { AppError, type AppErrorCode, isAppError } from "./errors";

/**
 * The JSON adapter, beside `formAction` for forms: one place that reads a JSON request body
 * (content type, size cap, syntax, the route's zod schema) and answers a refusal, so API routes
 * neither parse bodies nor sort errors themselves. Domain code throws `AppError`; the adapter
 * answers it with its status and a body in the API's own shape (a plain `{error}` for our APIs,
 * RFC 6749's `{error, error_description}` for the desktop app's OAuth-style endpoints).
 */

export interface ApiFailure {
  status: number;
  /** An AppError code, or `unsupported_media_type` for a body that is not JSON. */
  code: AppErrorCode | "unsupported_media_type";
  message: string;
  field?: string;
}

/** How an API writes a refusal's body. */
export type ErrorShape = (failure: ApiFailure) => unknown;

/** `{error: "what was wrong", field?}`: the site's own JSON APIs. */
export const plainErrors: ErrorShape = (failure) => ({
  error: failure.message,
  ...(failure.field ? { field: failure.field } : {}),
});

/** RFC 6749 section 5.2: every refusal of a malformed request is `invalid_request`. */
export const oauthErrors: ErrorShape = (failure) => ({
  error:
    failure.code === "invalid" ||
    failure.code === "unsupported_media_type" ||
    failure.code === "too_large"
      ? "invalid_request"
      : failure.code,
  error_description: failure.message,
});

const NO_STORE = { "Cache-Control": "no-store" };

/** The JSON response of a refusal, in the API's shape. */
export function failureResponse(failure: ApiFailure, shape: ErrorShape = plainErrors): Response {
  return Response.json(shape(failure), { status: failure.status, headers: NO_STORE });
}

/** A refusal before the body was understood (not an AppError: its status is not in the set). */
class BodyRefusal extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

export interface JsonBodyOptions<S extends z.ZodType> {
  schema: S;
  /** Largest body accepted, in bytes (the server's own cap for JSON applies before this). */
  maxBytes?: number;
}

/** Counts the body's bytes as they arrive and stops at the cap, so a huge body is never held. */
async function readCapped(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function tooLarge(maxBytes: number) {
  return new AppError("too_large", `The body must be at most ${maxBytes} bytes.`);
}

const DEFAULT_MAX_BYTES = 64 * 1024;

/**
 * The request's JSON body checked against `schema`. Throws an AppError (400 or 413) or a refusal
 * for a body that is not JSON (415), which `apiAction` answers.
 */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  { schema, maxBytes = DEFAULT_MAX_BYTES }: JsonBodyOptions<S>,
): Promise<z.output<S>> {
  if (
    !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(request.headers.get("content-type") ?? "")
  )
    throw new BodyRefusal({
      status: 415,
      code: "unsupported_media_type",
      message: "Send the body as application/json.",
    });
  const text = await readCapped(request, maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("invalid", "The body is not valid JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || undefined;
    throw new AppError("invalid", `${field ?? "body"}: ${issue?.message ?? "invalid"}`, { field });
  }
  return parsed.data;
}

/** An AppError or body refusal as the API's response; anything else is not ours to answer. */
export function refusalResponse(error: unknown, shape: ErrorShape = plainErrors): Response {
  if (error instanceof BodyRefusal) return failureResponse(error.failure, shape);
  if (isAppError(error)) {
    const response = failureResponse(
      { status: error.status, code: error.code, message: error.message, field: error.field },
      shape,
    );
    if (error.retryAfter !== undefined)
      response.headers.set("Retry-After", String(Math.ceil(error.retryAfter)));
    return response;
  }
  throw error;
}

/**
 * Runs an API action: reads and checks the JSON body, calls `handler` with it, and answers its
 * result as JSON (or the Response it returns). A refusal thrown on the way is answered in
 * `shape`; any other error propagates (a 500, logged by the server).
 */
export async function apiAction<S extends z.ZodType>(
  request: Request,
  options: JsonBodyOptions<S> & { shape?: ErrorShape; status?: number },
  handler: (input: z.output<S>) => Promise<unknown>,
): Promise<Response> {
  try {
    const input = await readJsonBody(request, options);
    const result = await handler(input);
    if (result instanceof Response) return result;
    return Response.json(result, { status: options.status ?? 200, headers: NO_STORE });
  } catch (error) {
    return refusalResponse(error, options.shape);
  }
}
