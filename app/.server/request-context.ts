import { createContext } from "react-router";
import type { Logger } from "./logger";

/** What the custom server knows about a request, handed to middleware, loaders and actions. */
export interface RequestInfo {
  requestId: string;
  /**
   * The Content-Security-Policy of an HTML page that runs these inline scripts (their
   * `sha256-…` sources); the server's configuration decides the rest of the policy.
   */
  contentSecurityPolicy(scriptHashes: readonly string[]): string;
  /** The client address: the socket peer, or the proxy header only when TRUST_PROXY allows. */
  clientIp: string;
  log: Logger;
  /**
   * The API rate-limit groups a fast answer already counted this request in before it handed the
   * request on (server/fast-answers.ts): their middleware lets it through without counting again.
   */
  countedRateLimits?: ReadonlySet<string>;
}

export const requestContext = createContext<RequestInfo>();
