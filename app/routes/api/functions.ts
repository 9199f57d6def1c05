import { getSession } from "~/.server/auth/session";
import { env } from "~/.server/env";
import {
  callableFunctions,
  FunctionError,
  isCallableName,
} from "~/.server/functions/registry.server";
import { requestContext } from "~/.server/request-context";
import { FUNCTION_STATUSES, type FunctionStatus } from "~/lib/functions-errors";
import { isJsonRequest } from "~/.server/desktop/http.server";
import type { Route } from "./+types/functions";

function failure(status: FunctionStatus, message: string) {
  return Response.json(
    { error: { status, message } },
    { status: FUNCTION_STATUSES[status].http, headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * Cookie sessions only count for same-origin browser calls; other clients must send a Bearer
 * token. (The global CSRF check already refuses cross-site posts; this also refuses cookie calls
 * that do not say where they come from.)
 */
function sameOriginCookieCall(request: Request): boolean {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  return (origin !== null && env().TRUSTED_ORIGINS.includes(origin)) || fetchSite === "same-origin";
}

/** POST /api/functions/:name with JSON {data}: 200 {result} or {error: {status, message}}. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { log } = context.get(requestContext);
  const name = params.name;
  if (request.method !== "POST") return failure("INVALID_ARGUMENT", "Use POST.");
  if (!isCallableName(name)) return failure("NOT_FOUND", `Function ${name} not found.`);

  const fn = callableFunctions[name];
  const bearer = request.headers.has("authorization");
  const session = bearer || sameOriginCookieCall(request) ? await getSession(request) : null;
  if (fn.requiresUser && !session) return failure("UNAUTHENTICATED", "Not authenticated");

  if (!isJsonRequest(request))
    return failure("INVALID_ARGUMENT", "Send the request body as application/json.");
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return failure("INVALID_ARGUMENT", "Request body must be a JSON object.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("data" in body)) {
    return failure("INVALID_ARGUMENT", "Request body must be a JSON object with a data field.");
  }

  const input = fn.input.safeParse((body as { data: unknown }).data);
  // Payloads are logged; the logger's redaction removes tokens and secrets.
  log.info(
    { function: name, data: (body as { data: unknown }).data, user: session?.user.id ?? null },
    "function call",
  );
  if (!input.success) {
    const issue = input.error.issues[0];
    return failure(
      "INVALID_ARGUMENT",
      `${issue?.path.join(".") || "data"}: ${issue?.message ?? "invalid"}`,
    );
  }
  try {
    // Each schema matches its own handler; TypeScript cannot follow that through the name union.
    const result = await fn.handler(input.data as never, { session, log });
    log.info({ function: name, result }, "function result");
    return Response.json({ result }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // The callable protocol answers in its own envelope and status names (`{ error: { status,
    // message } }`, FunctionError), which its clients read: not an AppError's HTTP mapping.
    if (error instanceof FunctionError) {
      log.info({ function: name, status: error.status }, "function refused");
      return failure(error.status, error.message);
    }
    log.error({ err: error, function: name }, "function failed");
    return failure("INTERNAL", "Internal error.");
  }
}

export function loader() {
  return failure("INVALID_ARGUMENT", "Use POST.");
}
