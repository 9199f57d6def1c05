/**
 * The fast answers (decision record 0032): for the routes whose `handle.fastAnswer` names one
 * (app/lib/route-handle.ts), what server/fast-answers.ts runs before express and React Router for
 * a GET or HEAD. Each makes the same decision as its route's loader, from the same code; null lets
 * the loader answer (it decides the same way again, with nothing counted twice).
 */
import type { FastAnswerName } from "~/lib/route-handle";
import {
  feedClientOf,
  outcomeFastResponse,
  staticFeedOutcome,
  tauriOutcome,
} from "../releases/feeds/index.server";

/** A GET or HEAD as a fast answer sees it: the route's params as React Router matched them. */
export interface FastRequest {
  method: "GET" | "HEAD";
  params: Readonly<Record<string, string | undefined>>;
  searchParams: URLSearchParams;
  /** A request header by its lower-case name (repeated ones joined with ", "), or null. */
  header(name: string): string | null;
  /** The client's address, as `req.ip` gives it (TRUST_PROXY applied). */
  clientIp: string;
}

/**
 * A body built once and shared by many answers; the server keeps its compressed copies in
 * `encoded` (one per encoding, made at its first use).
 */
export interface FastBody {
  bytes: Uint8Array;
  encoded: Map<string, Uint8Array>;
}

/**
 * What a fast answer sends: the status, the route's own headers (the server adds the security
 * headers, the request id and content negotiation as for any response), and a 200's body.
 */
export interface FastResponse {
  status: 200 | 204 | 304;
  headers: Readonly<Record<string, string>>;
  body?: FastBody;
}

export type FastAnswer = (request: FastRequest) => Promise<FastResponse | null>;

function feedClient(request: FastRequest) {
  return feedClientOf(request.searchParams, request.header("x-user-staging-id"), request.clientIp);
}

export const FAST_ANSWERS: Record<FastAnswerName, FastAnswer> = {
  /** /updates/:channel/:feed (app/routes/updates/feed.ts) */
  "update-feed": async (request) =>
    outcomeFastResponse(request, await staticFeedOutcome(request.params, feedClient(request))),
  /** /updates/tauri/:target/:arch/:current_version (app/routes/updates/tauri.ts) */
  "tauri-update": async (request) =>
    outcomeFastResponse(
      request,
      await tauriOutcome(request.params, request.searchParams.get("channel"), feedClient(request)),
    ),
};
