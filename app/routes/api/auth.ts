import { CLIENT_IP_HEADER, auth } from "~/.server/auth/auth.server";
import { requestContext } from "~/.server/request-context";
import type { Route } from "./+types/auth";

/**
 * Better Auth's endpoints (/api/auth/*). The client IP its rate limiter keys on is the one our
 * server trusts (socket peer, or the proxy header only when TRUST_PROXY says so): a forged
 * X-Forwarded-For cannot reset a limit.
 */
function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  headers.set(CLIENT_IP_HEADER, context.get(requestContext).clientIp);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : request.body;
  const forwarded = new Request(request.url, {
    method: request.method,
    headers,
    body,
    signal: request.signal,
    // Node's fetch needs this to stream a request body.
    ...(body ? { duplex: "half" } : {}),
  } as RequestInit);
  return auth().handler(forwarded);
}

export const loader = handle;
export const action = handle;
