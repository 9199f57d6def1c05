import { adminCaller, type AdminCaller } from "../admin/api-tokens.server";
import { ADMIN_STEP_UP_REQUIRED_MESSAGE } from "../account/sensitive-rules";
import { isAppError } from "../http/errors";
import { UploadTooLargeError } from "./storage/index.server";

const NO_STORE = { "Cache-Control": "no-store" };

export function apiError(status: number, message: string): Response {
  return Response.json({ error: message }, { status, headers: NO_STORE });
}

/** The admin behind an admin API request, or the 401/403 response. */
export async function requireAdminApi(request: Request): Promise<AdminCaller | Response> {
  const caller = await adminCaller(request);
  if (caller === null)
    return apiError(401, "Sign in as an administrator or send an admin API token.");
  if (caller === "forbidden") return apiError(403, "This API is for administrators.");
  if (caller === "step-up") return apiError(403, ADMIN_STEP_UP_REQUIRED_MESSAGE);
  return caller;
}

/** Refusals keep their status; an upload past the limit is 413; anything else is thrown. */
export function releaseErrorResponse(error: unknown): Response {
  if (isAppError(error)) return apiError(error.status, error.message);
  if (error instanceof UploadTooLargeError) return apiError(413, error.message);
  throw error;
}
