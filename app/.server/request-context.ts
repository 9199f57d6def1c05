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
}

export const requestContext = createContext<RequestInfo>();
