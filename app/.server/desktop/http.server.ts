import type { z } from "zod";
import { oauthErrors, readJsonBody, refusalResponse } from "../http/api-action";
import { authenticateDevice, DesktopAuthError } from "./devices.server";

/** What every desktop API answer says to caches. */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** OAuth-style JSON error: {error, error_description}. */
export function oauthError(
  status: number,
  error: string,
  description: string,
  extra: Record<string, unknown> = {},
) {
  return Response.json(
    { error, error_description: description, ...extra },
    { status, headers: NO_STORE },
  );
}

export function json(body: unknown, status = 200) {
  return Response.json(body, { status, headers: NO_STORE });
}

export function fromError(error: unknown): Response {
  if (error instanceof DesktopAuthError) {
    const extra =
      error.code === "device_limit_reached" ? { manage_devices_url: "/account/security" } : {};
    return oauthError(error.status, error.code, error.message, extra);
  }
  throw error;
}

/**
 * The JSON body checked against a schema, or the refusal to return (415, 413, 400) as an OAuth
 * error: the site's one JSON body reader (`readJsonBody`, app/.server/http/api-action.ts).
 */
export async function readBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<z.output<S> | Response> {
  try {
    return await readJsonBody(request, { schema });
  } catch (error) {
    const refused = refusalResponse(error, oauthErrors);
    refused.headers.set("Pragma", "no-cache");
    return refused;
  }
}

/**
 * The refusal of a device past the plan's limit (a signed-in device beyond it after a downgrade):
 * the same error as a sign-in refused for the limit, with where to sign devices out.
 */
export function deviceLimitAnswer(limit: number) {
  return {
    status: 403 as const,
    body: {
      error: "device_limit_reached",
      error_description: `your plan allows ${limit} signed-in device(s) and others were used more recently: sign one out at /account/security, then sign in here again`,
      manage_devices_url: "/account/security",
    },
    headers: NO_STORE,
  };
}

/**
 * A dead machine's check-in while every slot is taken (issue 57): the same error, in the words the
 * app shows ("Pro is in use on 3 other machines: sign one out at …").
 */
export function checkInRefusal(limit: number, inUse: number, siteUrl: string) {
  const others = inUse === 1 ? "1 other machine" : `${inUse} other machines`;
  return {
    status: 403 as const,
    body: {
      error: "device_limit_reached",
      error_description: `Pro is in use on ${others} (your plan allows ${limit}): sign one out at ${siteUrl}/account/security, and this one comes back at its next check-in`,
      manage_devices_url: "/account/security",
    },
    headers: NO_STORE,
  };
}

/** The refusal of a missing, unknown, expired or revoked access token (RFC 6750). */
export const INVALID_TOKEN = {
  status: 401 as const,
  body: { error: "invalid_token", error_description: "missing, expired or revoked access token" },
  headers: { ...NO_STORE, "WWW-Authenticate": 'Bearer error="invalid_token"' },
};

export function invalidTokenResponse(): Response {
  return Response.json(INVALID_TOKEN.body, {
    status: INVALID_TOKEN.status,
    headers: INVALID_TOKEN.headers,
  });
}

/** The device behind the Bearer token, or the 401 response (RFC 6750). */
export async function requireDevice(request: Request) {
  const found = await authenticateDevice(request.headers.get("authorization"));
  if (found) return found;
  return invalidTokenResponse();
}

export function methodNotAllowed(allow: string) {
  return Response.json(
    { error: "invalid_request", error_description: `use ${allow}` },
    { status: 405, headers: { Allow: allow } },
  );
}

/** application/json (any charset) or a +json type: what the JSON endpoints accept. */
export function isJsonRequest(request: Request): boolean {
  const type = request.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || type.endsWith("+json");
}
