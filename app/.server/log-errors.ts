/**
 * An error as a log line carries it: its name, message and code, then each `cause` down the
 * chain (a library's "Failed to run background task:" says nothing without them). Stacks stay
 * out (the error's own place in the code is in its message chain often enough, and a stack of a
 * bundled server is long); values a library passes that are not errors are noted by type only,
 * so a token or a URL in one never reaches the log.
 */
export interface LoggedError {
  name: string;
  message: string;
  code?: string;
  cause?: LoggedError;
}

const MAX_DEPTH = 5;

export function errorForLog(value: unknown, depth = 0): LoggedError {
  if (!(value instanceof Error))
    return { name: typeof value, message: value === null ? "null" : `(a ${typeof value})` };
  const code = (value as { code?: unknown }).code;
  const logged: LoggedError = { name: value.name, message: value.message.slice(0, 500) };
  if (typeof code === "string" || typeof code === "number") logged.code = String(code);
  if (value.cause !== undefined && depth < MAX_DEPTH)
    logged.cause = errorForLog(value.cause, depth + 1);
  return logged;
}
