/**
 * HTTP plumbing: Basic auth, zod validation with Razorpay-style errors, and the router's error
 * handler (malformed JSON → 400, never a 500 page).
 */
import type { NextFunction, Request, Response } from "express";
import { z } from "zod";
import { badRequest, safeEqual, SandboxError, unauthorized } from "./util";

/** Requires HTTP Basic `keyId:keySecret`, compared in constant time. */
export function basicAuth(keyId: string, keySecret: string) {
  const expected = `${keyId}:${keySecret}`;
  return (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get("authorization") ?? "";
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const given = match?.[1] ? Buffer.from(match[1], "base64").toString("utf8") : "";
    if (!safeEqual(given, expected)) throw unauthorized();
    next();
  };
}

/** The public checkout endpoints only need the key id (like Razorpay's checkout). */
export function requireKeyId(keyId: string, given: unknown): void {
  if (typeof given !== "string" || !safeEqual(given, keyId)) throw unauthorized();
}

/** Turns the first zod issue into Razorpay's wording and field. */
function issueToError(issue: z.core.$ZodIssue, input: unknown): SandboxError {
  const field = issue.path.map(String).join(".") || null;
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((key) => (field ? `${field}.${key}` : key));
    return badRequest(`${keys.join(", ")} is/are not required and should not be sent`, keys[0]);
  }
  if (issue.code === "invalid_type" && valueAt(input, issue.path) === undefined)
    return badRequest(`The ${field ?? "request body"} field is required.`, field);
  return badRequest(`${field ? `${field}: ` : ""}${issue.message}`, field);
}

export function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw issue ? issueToError(issue, input) : badRequest("Invalid request");
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A request body: missing (no JSON content type) counts as `{}`. */
export function parseBody<T extends z.ZodType>(schema: T, req: Request): z.output<T> {
  const body: unknown = req.body ?? {};
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest("The request body must be a JSON object.");
  return parse(schema, body);
}

/** `count`/`skip` query parameters. */
export const pageQuery = z.object({
  count: z.coerce.number().int().min(1).max(100).default(10),
  skip: z.coerce.number().int().min(0).default(0),
});

/** Razorpay accepts 0/1 as well as booleans for flags. */
export const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]);

export const notesInput = z
  .union([
    z.record(z.string().max(256), z.union([z.string().max(256), z.number()])),
    z.array(z.unknown()).max(0),
  ])
  .refine((notes) => Array.isArray(notes) || Object.keys(notes).length <= 15, {
    message: "notes can have at most 15 keys",
  })
  .transform((notes): Record<string, string | number> => (Array.isArray(notes) ? {} : notes));

export function sendError(res: Response, error: SandboxError): void {
  res.status(error.status).set("Cache-Control", "no-store").json(error.body);
}

/** The router's error handler: Razorpay's error body for everything. */
export function errorHandler(log: (message: string, details?: Record<string, unknown>) => void) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error instanceof SandboxError) return sendError(res, error);
    const status =
      typeof error === "object" && error !== null && "status" in error ? Number(error.status) : 500;
    const type =
      typeof error === "object" && error !== null && "type" in error ? String(error.type) : "";
    if (status >= 400 && status < 500) {
      const description =
        type === "entity.parse.failed"
          ? "The request body is not valid JSON."
          : type === "entity.too.large"
            ? "The request body is too large."
            : "The request could not be read.";
      const refusal = badRequest(description);
      return sendError(res, new SandboxError(status === 413 ? 413 : 400, refusal.body));
    }
    log("sandbox internal error", { error: String(error) });
    sendError(
      res,
      new SandboxError(500, {
        error: {
          code: "SERVER_ERROR",
          description: "The server encountered an error. The incident has been reported to admins.",
          source: "NA",
          step: "NA",
          reason: "server_error",
          field: null,
        },
      }),
    );
  };
}
