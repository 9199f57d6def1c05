import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { desktopMe } from "~/.server/desktop/me.server";
import {
  deviceLimitAnswer,
  invalidTokenResponse,
  json,
  oauthError,
} from "~/.server/desktop/http.server";
import type { Route } from "./+types/wait";

/** How often the wait reads the entitlement again: a second or two after a payment is soon enough. */
const POLL_MS = 2000;

const querySchema = z.object({
  since: z.string().regex(/^[0-9a-f]{16}$/, {
    error: "since must be the entitlement_tag of the app's last /me or check-in",
  }),
  timeout: z.coerce
    .number({ error: "timeout must be a number of seconds" })
    .int({ error: "timeout must be a whole number of seconds" })
    .min(1, { error: "timeout must be 1 to 30 seconds" })
    .max(30, { error: "timeout must be 1 to 30 seconds" })
    .default(25),
});

/**
 * GET /api/desktop/wait?since=<entitlement_tag>&timeout=<1–30 s> (issue 57, point 4): after
 * opening a purchase, seats or payment link, the app waits here for its entitlement to change.
 * The answer is `/me`'s (entitlement and licence) with `changed`: true as soon as the tag differs
 * from `since`, false when the bound passes first (the app asks again, or waits for its next
 * check-in).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = querySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success)
    return oauthError(400, "invalid_request", query.error.issues[0]?.message ?? "invalid query");
  const asked = {
    authorization: request.headers.get("authorization"),
    appVersion: request.headers.get("x-app-version"),
  };
  const deadline = Date.now() + query.data.timeout * 1000;
  for (;;) {
    const outcome = await desktopMe(asked);
    if (outcome.status === 403) {
      const refusal = deviceLimitAnswer(outcome.deviceLimit);
      return Response.json(refusal.body, { status: refusal.status, headers: refusal.headers });
    }
    if (outcome.status !== 200) return invalidTokenResponse();
    const changed = outcome.body.entitlement_tag !== query.data.since;
    const left = deadline - Date.now();
    if (changed || left <= 0) return json({ changed, ...outcome.body });
    try {
      await sleep(Math.min(POLL_MS, left), undefined, { signal: request.signal });
    } catch {
      // The app stopped waiting (or the server is stopping): nobody reads an answer.
      return new Response(null, { status: 499 });
    }
  }
}
