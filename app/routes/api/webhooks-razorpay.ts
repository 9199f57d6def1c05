import { data } from "react-router";
import { paymentsConfig } from "~/.server/billing/provider.server";
import { receiveWebhook } from "~/.server/billing/webhooks.server";
import { kickJobs } from "~/.server/jobs/kick";
import { requestContext } from "~/.server/request-context";
import type { RouteHandle } from "~/lib/route-handle";
import type { Route } from "./+types/webhooks-razorpay";

/** Razorpay's events are small (a few KB); anything far larger is not from Razorpay. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * The server caps the body at this before the action runs, counting bytes as they stream in
 * (chunked too) and handing over the raw bytes the signature is checked on (server/body-limit.ts).
 */
export const handle: RouteHandle = { body: { limit: MAX_BODY_BYTES } };

export function loader() {
  return data(
    { error: "Razorpay webhooks are POSTed here." },
    { status: 405, headers: { Allow: "POST" } },
  );
}

/** The URL entered in Razorpay's dashboard: verify, store, acknowledge (processing is a job). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST")
    return data({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return data({ error: "Body too large." }, { status: 413 });
  const rawBody = await request.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES)
    return data({ error: "Body too large." }, { status: 413 });

  const result = await receiveWebhook(
    {
      rawBody,
      signature: request.headers.get("x-razorpay-signature"),
      eventId: request.headers.get("x-razorpay-event-id"),
    },
    { secret: paymentsConfig().webhookSecret },
  );
  const log = context.get(requestContext).log;
  if (result.status === 400) {
    log.warn({ reason: result.error }, "razorpay webhook refused");
    return data({ error: result.error }, { status: 400 });
  }
  log.info({ eventId: result.eventId, outcome: result.outcome }, "razorpay webhook stored");
  if (result.outcome === "stored") kickJobs();
  return data({ status: result.outcome });
}
