import { data } from "react-router";
import { parseBatch, storeEvents } from "~/.server/analytics/events.server";
import { requestContext } from "~/.server/request-context";
import { rateLimitClientKey } from "~/.server/security/client-key";
import { hitRateLimit } from "~/.server/security/rate-limit.server";
import { readConsent } from "~/lib/analytics/consent";
import type { Route } from "./+types/events";

const MAX_BODY_BYTES = 64 * 1024;

/**
 * POST /api/events: a batch from the browser's analytics client. Stored only with the visitor's
 * consent cookie; any event that does not match the catalogue rejects the whole batch (400).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw data({ error: "use POST" }, { status: 405 });
  if (readConsent(request.headers.get("cookie") ?? "") !== "granted") {
    return Response.json({ error: "no analytics consent: nothing stored" }, { status: 403 });
  }
  const { clientIp } = context.get(requestContext);
  const limit = await hitRateLimit(`events:${rateLimitClientKey(clientIp)}`, 120, 60);
  if (!limit.allowed) {
    return Response.json(
      { error: "too many events" },
      { status: 429, headers: { "Retry-After": String(limit.retryAfter) } },
    );
  }
  const raw = await request.text();
  if (raw.length > MAX_BODY_BYTES)
    return Response.json({ error: "batch too large" }, { status: 413 });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return Response.json({ error: "body is not JSON" }, { status: 400 });
  }
  const batch = parseBatch(body);
  if (!batch.ok) return Response.json({ error: batch.error }, { status: 400 });
  const stored = await storeEvents(batch);
  return Response.json({ stored });
}

export function loader() {
  return Response.json({ error: "use POST" }, { status: 405, headers: { Allow: "POST" } });
}
