/**
 * Small helpers shared by the sandbox: Razorpay-style ids, error bodies, HMAC signatures,
 * constant-time comparison and billing-period calendar math.
 */
import { createHash, createHmac, randomInt, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `prefix_` + 14 random base62 characters, like Razorpay's ids. */
export function newId(prefix: string): string {
  let id = "";
  for (let i = 0; i < 14; i++) id += BASE62.charAt(randomInt(62));
  return `${prefix}_${id}`;
}

/** A bank reference like a card refund's ARN: 23 digits. */
export function newArn(): string {
  let arn = "7";
  for (let i = 0; i < 22; i++) arn += String(randomInt(10));
  return arn;
}

/** Hex HMAC-SHA256 of `message` keyed with `secret`. */
export function hmacHex(secret: string, message: string | Buffer): string {
  return createHmac("sha256", secret).update(message).digest("hex");
}

/** Compares two strings without leaking where (or whether their lengths) differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right) && a === b;
}

export interface RazorpayErrorBody {
  error: {
    code: string;
    description: string;
    source: string;
    step: string;
    reason: string;
    field: string | null;
    metadata?: Record<string, unknown>;
  };
}

/** A refusal that the router turns into Razorpay's error body with `status`. */
export class SandboxError extends Error {
  override name = "SandboxError";
  constructor(
    readonly status: number,
    readonly body: RazorpayErrorBody,
  ) {
    super(body.error.description);
  }
}

/** 400 for a validation or state error. */
export function badRequest(description: string, field: string | null = null): SandboxError {
  return new SandboxError(400, {
    error: {
      code: "BAD_REQUEST_ERROR",
      description,
      source: "business",
      step: "NA",
      reason: "input_validation_failed",
      field,
    },
  });
}

export function notFound(): SandboxError {
  return new SandboxError(404, {
    error: {
      code: "BAD_REQUEST_ERROR",
      description: "The id provided does not exist",
      source: "business",
      step: "NA",
      reason: "input_validation_failed",
      field: "id",
    },
  });
}

export function unauthorized(): SandboxError {
  return new SandboxError(401, {
    error: {
      code: "BAD_REQUEST_ERROR",
      description: "Authentication failed",
      source: "NA",
      step: "NA",
      reason: "NA",
      field: null,
    },
  });
}

export type Period = "daily" | "weekly" | "monthly" | "yearly";

/** Adds `months` calendar months in UTC, keeping the day of month or clamping to the month's last day. */
function addMonths(unixSeconds: number, months: number): number {
  const date = new Date(unixSeconds * 1000);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return Math.floor(
    Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()) /
      1000,
  );
}

/** The end of a billing cycle that starts at `start`. */
export function addPeriod(start: number, period: Period, interval: number): number {
  switch (period) {
    case "daily":
      return start + interval * 86_400;
    case "weekly":
      return start + interval * 7 * 86_400;
    case "monthly":
      return addMonths(start, interval);
    case "yearly":
      return addMonths(start, interval * 12);
  }
}

export type Notes = Record<string, string | number>;

/** Razorpay's quirk: empty notes are sent as `[]`. */
export function outNotes(notes: Notes | undefined): Notes | [] {
  return notes && Object.keys(notes).length > 0 ? { ...notes } : [];
}

/** Reads notes stored in Razorpay's shape back as an object. */
export function inNotes(notes: Notes | []): Notes {
  return Array.isArray(notes) ? {} : notes;
}
