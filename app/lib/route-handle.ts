/**
 * What a route module may declare in its `handle` export for the server in front of React Router
 * (server/body-limit.ts and server/fast-answers.ts read it from the build, through React Router's
 * own matching), so that rules about a route live beside the route and never as a second list of
 * paths in `server/`.
 */
export interface RouteHandle {
  /**
   * How big this route's request bodies may be: a byte count instead of the default of their
   * content type, or "streamed" when the action reads the stream itself with its own limit
   * (release uploads of hundreds of MB).
   */
  body?: { limit: number } | "streamed";
  /**
   * A resource route polled by every installed app may be answered for GET and HEAD before express
   * and React Router's request handler (server/fast-answers.ts, decision 0032), by the function of
   * this name in `FAST_ANSWERS` (app/.server/http/fast-answers.server.ts): the same decision its
   * loader makes, from the same code. Only for a route with no middleware of its own or of its
   * layouts but API rate limits (`apiRateLimit`), in which its answer then counts the request as
   * that middleware would (checked at start-up, and on every answer).
   */
  fastAnswer?: FastAnswerName;
}

/** The fast answers there are; each is implemented once in `FAST_ANSWERS`. */
export type FastAnswerName = "update-feed" | "tauri-update" | "desktop-me";
