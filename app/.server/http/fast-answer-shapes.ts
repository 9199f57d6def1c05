/**
 * The shapes of a fast answer (decision record 0032): the request it sees and what it sends. A
 * leaf, so the answers' own modules (the update feeds) name them without importing the list of
 * answers that imports them.
 */
/** A GET or HEAD as a fast answer sees it: the route's params as React Router matched them. */
export interface FastRequest {
  method: "GET" | "HEAD";
  params: Readonly<Record<string, string | undefined>>;
  searchParams: URLSearchParams;
  /** A request header by its lower-case name (repeated ones joined with ", "), or null. */
  header(name: string): string | null;
  /** The client's address, as `req.ip` gives it (TRUST_PROXY applied). */
  clientIp: string;
  /**
   * The API rate-limit groups (`apiRateLimit`) of the route's layouts, outermost first, which the
   * answer must count the request in as that middleware would (and answer 429 past a limit)
   * before it answers anything else; empty for a route without them.
   */
  rateLimits: readonly string[];
  /** Tells the server the request was counted in `group`: the app will not count it again. */
  counted(group: string): void;
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
 * headers, the request id and content negotiation as for any response), and the body of a 200,
 * 401 or 429.
 */
export interface FastResponse {
  status: 200 | 204 | 304 | 401 | 403 | 429;
  headers: Readonly<Record<string, string>>;
  body?: FastBody;
}
