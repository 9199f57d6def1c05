import { z } from "zod";
import { parseBatch, storeEvents } from "~/.server/analytics/events.server";
import {
  analyticsIdCookie,
  analyticsIdOf,
  issueAnalyticsId,
} from "~/.server/analytics/visitor-id.server";
import { apiAction, failureResponse } from "~/.server/http/api-action";
import { AppError } from "~/.server/http/errors";
import { requestContext } from "~/.server/request-context";
import { rateLimitClientKey } from "~/.server/security/client-key";
import { hitRateLimit } from "~/.server/security/rate-limit.server";
import { readConsent } from "~/lib/analytics/consent";
import type { Route } from "./+types/events";

/**
 * POST /api/events: a batch from the browser's analytics client. Stored only with the visitor's
 * consent cookie (checked before the body is read); any event that does not match the catalogue
 * rejects the whole batch (400). The visitor's id comes from our signed cookie, set on the first
 * batch after consent.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST")
    return failureResponse({ status: 405, code: "invalid", message: "use POST" });
  if (readConsent(request.headers.get("cookie") ?? "") !== "granted")
    return failureResponse({
      status: 403,
      code: "forbidden",
      message: "no analytics consent: nothing stored",
    });
  const { clientIp } = context.get(requestContext);
  const limit = await hitRateLimit(`events:${rateLimitClientKey(clientIp)}`, 120, 60);
  if (!limit.allowed) {
    return Response.json(
      { error: "too many events" },
      { status: 429, headers: { "Retry-After": String(limit.retryAfter) } },
    );
  }
  // The visitor's id is the one we signed, or a new one (capped per address per day); an id in
  // the body is never trusted (issue 32, point 11).
  let setCookie: string | null = null;
  const known = analyticsIdOf(request.headers.get("cookie") ?? "");
  const clientId = known ?? (await issueAnalyticsId(clientIp));
  if (!known && clientId)
    setCookie = analyticsIdCookie(clientId, new URL(request.url).protocol === "https:");
  // The catalogue check needs the whole batch (one bad event rejects all), so the schema here is
  // only "JSON"; parseBatch names the event and field that failed.
  const response = await apiAction(
    request,
    { schema: z.unknown(), maxBytes: 64 * 1024 },
    async (body) => {
      const batch = parseBatch(body);
      if (!batch.ok) throw new AppError("invalid", batch.error);
      return { stored: await storeEvents({ ...batch, clientId }) };
    },
  );
  if (setCookie && response.ok) response.headers.append("Set-Cookie", setCookie);
  return response;
}

export function loader() {
  return Response.json({ error: "use POST" }, { status: 405, headers: { Allow: "POST" } });
}
