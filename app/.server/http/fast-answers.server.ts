/**
 * The fast answers (decision record 0032): for the routes whose `handle.fastAnswer` names one
 * (app/lib/route-handle.ts), what server/fast-answers.ts runs before express and React Router for
 * a GET or HEAD. Each makes the same decision as its route's loader, from the same code; null lets
 * the loader answer (it decides the same way again, with nothing counted twice).
 */
import type { FastAnswerName } from "~/lib/route-handle";
import { deviceLimitAnswer, INVALID_TOKEN, NO_STORE } from "../desktop/http.server";
import { desktopMe } from "../desktop/me.server";
import { countApiRequest, rateLimitedAnswer } from "../security/rate-limit.server";
import {
  feedClientOf,
  outcomeFastResponse,
  staticFeedOutcome,
  tauriOutcome,
} from "../releases/feeds/index.server";
import type { FastBody, FastRequest, FastResponse } from "./fast-answer-shapes";

export type { FastBody, FastRequest, FastResponse } from "./fast-answer-shapes";

/** A body sent once, as `Response.json` would have written it. */
export function jsonBody(value: unknown): FastBody {
  return { bytes: Buffer.from(JSON.stringify(value)), encoded: new Map() };
}

/** A JSON answer as `Response.json(body, { status, headers })` gives it. */
export function jsonFastResponse(answer: {
  status: FastResponse["status"];
  body: unknown;
  headers: Readonly<Record<string, string>>;
}): FastResponse {
  return {
    status: answer.status,
    headers: { "Content-Type": "application/json", ...answer.headers },
    body: jsonBody(answer.body),
  };
}

/** The 401 of the desktop API, made once (its compressed copies too). */
const invalidToken: FastResponse = jsonFastResponse(INVALID_TOKEN);

export type FastAnswer = (request: FastRequest) => Promise<FastResponse | null>;

function feedClient(request: FastRequest) {
  return feedClientOf(request.searchParams, request.header("x-user-staging-id"), request.clientIp);
}

/**
 * Counts the request in each of its route's rate-limit groups, as their middleware would: the
 * 429 past a limit, else null (counted; answer on).
 */
async function countRateLimits(request: FastRequest): Promise<FastResponse | null> {
  for (const group of request.rateLimits) {
    const result = await countApiRequest(group, request.clientIp);
    request.counted(group);
    if (!result.allowed) return jsonFastResponse(rateLimitedAnswer(result.retryAfter));
  }
  return null;
}

export const FAST_ANSWERS: Record<FastAnswerName, FastAnswer> = {
  /** /updates/:channel/:feed (app/routes/updates/feed.ts), under the `updates` rate limit. */
  "update-feed": async (request) =>
    (await countRateLimits(request)) ??
    outcomeFastResponse(request, await staticFeedOutcome(request.params, feedClient(request))),
  /**
   * /api/desktop/me (app/routes/desktop/me.ts), under the desktop API's rate limit: counted in
   * this process before the read (no write, decision 0068).
   */
  "desktop-me": async (request) => {
    const outcome = await desktopMe(
      {
        authorization: request.header("authorization"),
        appVersion: request.header("x-app-version"),
      },
      {
        count: {
          groups: request.rateLimits,
          clientIp: request.clientIp,
          onCounted: request.counted,
        },
      },
    );
    if (outcome.status === 429) return jsonFastResponse(rateLimitedAnswer(outcome.retryAfter));
    if (outcome.status === 401) return invalidToken;
    if (outcome.status === 403) return jsonFastResponse(deviceLimitAnswer(outcome.deviceLimit));
    return jsonFastResponse({ status: 200, body: outcome.body, headers: NO_STORE });
  },
  /**
   * /updates/tauri/:target/:arch/:current_version (app/routes/updates/tauri.ts), under the
   * `updates` rate limit.
   */
  "tauri-update": async (request) =>
    (await countRateLimits(request)) ??
    outcomeFastResponse(
      request,
      await tauriOutcome(request.params, request.searchParams.get("channel"), feedClient(request)),
    ),
};
