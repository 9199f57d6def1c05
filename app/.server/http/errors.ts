/**
 * The one error domain code throws for a request it refuses: a code from a closed set (which
 * decides the HTTP status), a message for people, and optionally the form field it is about.
 * Routes never sort errors themselves: `formAction` (app/.server/forms/action.server.ts) and the
 * JSON adapters answer an AppError with its status and message; anything else is a 500.
 */
const STATUS = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  provider_failed: 502,
} as const;

export type AppErrorCode = keyof typeof STATUS;

export class AppError extends Error {
  override name = "AppError";
  readonly status: (typeof STATUS)[AppErrorCode];
  readonly field: string | undefined;
  /** Seconds until asking again may succeed (a rate limit): sent as `Retry-After`. */
  readonly retryAfter: number | undefined;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    options: { field?: string; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = STATUS[code];
    this.field = options.field;
    this.retryAfter = options.retryAfter;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
