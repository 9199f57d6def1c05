import { createContext } from "react-router";
import type { Logger } from "./logger";

/** What the custom server knows about a request, handed to middleware, loaders and actions. */
export interface RequestInfo {
  requestId: string;
  /** Per-request CSP nonce; every inline script carries it. */
  cspNonce: string;
  /** The client address: the socket peer, or the proxy header only when TRUST_PROXY allows. */
  clientIp: string;
  log: Logger;
}

export const requestContext = createContext<RequestInfo>();
