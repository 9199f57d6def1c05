/**
 * A consenting visitor's analytics id is ours, not the browser's (issue 32, point 11): the
 * funnel counted whatever id a client sent, so anyone could add visitors or move a step's count.
 * The first event batch after consent gets a random id in a signed first-party cookie; later
 * batches and the checkout are joined to the funnel only by an id whose signature holds. New ids
 * are capped per address per day, so a script that drops its cookie each time adds a handful of
 * visitors, not thousands; past the cap its events are stored without an id (they count as
 * events, never as visitors).
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { ANALYTICS_ID_COOKIE } from "~/lib/analytics/visitor-cookie";
import { type Database, db as defaultDb } from "../db";
import { rateLimitClientKey } from "../security/client-key";
import { encryptionKey } from "../security/key-vault.server";
import { hitRateLimit } from "../security/rate-limit.server";

/** New ids one address may be given per day: a family or an office, not a script. */
export const NEW_IDS_PER_ADDRESS_PER_DAY = 20;

const ONE_YEAR = 60 * 60 * 24 * 365;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signatureOf(id: string): Buffer {
  return createHmac("sha256", encryptionKey("analytics-ids")).update(id).digest().subarray(0, 16);
}

/** The id of a cookie value `<uuid>.<signature>`, or null when it was not made here. */
export function verifiedAnalyticsId(value: string | null | undefined): string | null {
  if (!value) return null;
  const dot = value.indexOf(".");
  const id = value.slice(0, dot);
  if (dot < 0 || !UUID.test(id)) return null;
  const given = Buffer.from(value.slice(dot + 1), "base64url");
  const expected = signatureOf(id);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/** The verified analytics id in a request's cookies, or null. */
export function analyticsIdOf(cookieHeader: string): string | null {
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === ANALYTICS_ID_COOKIE) return verifiedAnalyticsId(rest.join("="));
  }
  return null;
}

/** The Set-Cookie header that gives a browser `id`. */
export function analyticsIdCookie(id: string, secure: boolean): string {
  const value = `${id}.${signatureOf(id).toString("base64url")}`;
  return `${ANALYTICS_ID_COOKIE}=${value}; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** A new id for a visitor at `clientIp`, or null past the address's daily cap. */
export async function issueAnalyticsId(
  clientIp: string,
  database: Database = defaultDb(),
): Promise<string | null> {
  const limit = await hitRateLimit(
    `analytics-ids:${rateLimitClientKey(clientIp)}`,
    NEW_IDS_PER_ADDRESS_PER_DAY,
    24 * 60 * 60,
    database,
  );
  return limit.allowed ? randomUUID() : null;
}
