/**
 * What a route module may declare in its `handle` export for the server in front of React Router
 * (server/body-limit.ts reads it from the build, through React Router's own matching), so that
 * rules about a route live beside the route and never as a second list of paths in `server/`.
 */
export interface RouteHandle {
  /**
   * How big this route's request bodies may be: a byte count instead of the default of their
   * content type, or "streamed" when the action reads the stream itself with its own limit
   * (release uploads of hundreds of MB).
   */
  body?: { limit: number } | "streamed";
}
