import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  type RouterContextProvider,
  ServerRouter,
  isRouteErrorResponse,
} from "react-router";
import { isBot } from "./.server/bots";
import { logger } from "./.server/logger";
import { isDatabaseUnavailable } from "./.server/db/outage";
import { requestContext } from "./.server/request-context";
import { NonceProvider } from "./lib/nonce";

export const streamTimeout = 5_000;

/** Bots get the status and a short plain-text body instead of an error page. */
function botErrorResponse(status: number, headers: Headers): Response {
  const text =
    status === 404
      ? "Not Found"
      : status === 403
        ? "Forbidden"
        : status >= 500
          ? "Internal Server Error"
          : "Error";
  headers.set("Content-Type", "text/plain; charset=utf-8");
  return new Response(`${status} ${text}\n`, { status, headers });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const bot = isBot(request.headers.get("user-agent"));
  if (bot && responseStatusCode >= 400)
    return botErrorResponse(responseStatusCode, responseHeaders);

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const { cspNonce } = loadContext.get(requestContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Bots wait for all content so they index the full page.
    const readyOption: keyof RenderToPipeableStreamOptions =
      bot || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={cspNonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={cspNonce} />
      </NonceProvider>,
      {
        nonce: cspNonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reject and are logged by handleError.
          if (shellRendered) {
            loadContext.get(requestContext).log.error({ err: error }, "error while streaming");
          }
        },
      },
    );
  });
}

/** Logs every unexpected server error once, with the request id. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  let log = logger();
  try {
    log = (context as RouterContextProvider).get(requestContext).log;
  } catch {
    // No request context (called outside the custom server): the root logger still records it.
  }
  const path = new URL(request.url).pathname;
  // An outage is one cause behind many failed requests (answered 503 by app/.server/db/outage.ts):
  // a warning per request, not an error report each.
  if (isDatabaseUnavailable(error)) log.warn({ err: error, path }, "database unavailable");
  else log.error({ err: error, path }, "unhandled server error");
};
