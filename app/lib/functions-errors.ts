/**
 * The callable-function error vocabulary (spec section 8): the wire status, the lowercase client
 * code, and the HTTP status that carries it. Shared by the server and the browser helper.
 */
export const FUNCTION_STATUSES = {
  INVALID_ARGUMENT: { code: "invalid-argument", http: 400 },
  UNAUTHENTICATED: { code: "unauthenticated", http: 401 },
  PERMISSION_DENIED: { code: "permission-denied", http: 403 },
  NOT_FOUND: { code: "not-found", http: 404 },
  ABORTED: { code: "aborted", http: 409 },
  RESOURCE_EXHAUSTED: { code: "resource-exhausted", http: 429 },
  CANCELLED: { code: "cancelled", http: 499 },
  INTERNAL: { code: "internal", http: 500 },
  UNIMPLEMENTED: { code: "unimplemented", http: 501 },
  UNAVAILABLE: { code: "unavailable", http: 503 },
  DEADLINE_EXCEEDED: { code: "deadline-exceeded", http: 504 },
} as const;

export type FunctionStatus = keyof typeof FUNCTION_STATUSES;
export type FunctionErrorCode = (typeof FUNCTION_STATUSES)[FunctionStatus]["code"];

/** HTTP status → client code; 0 (no response) and anything unknown are "internal". */
export function codeForHttpStatus(status: number): FunctionErrorCode {
  for (const entry of Object.values(FUNCTION_STATUSES))
    if (entry.http === status) return entry.code;
  return "internal";
}
