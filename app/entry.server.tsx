import { randomBytes } from "node:crypto";
import { Transform, Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
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
import { inlineScriptHashes } from "./.server/http/inline-scripts";
import { privateDocuments, renderKey } from "./.server/http/private-documents";
import { isGuarded } from "./.server/auth/guards";
import { sessionContext } from "./.server/auth/session";
import { NonceContext } from "./lib/nonce";

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

/**
 * A public page is rendered whole before answering (decision record 0022): the
 * Content-Security-Policy lists the hash of each inline script it carries, so the header depends
 * only on the bytes, and the response is the same for every visitor and can be cached and shared.
 *
 * A signed-in page (a guarded route: private, never stored by any cache) streams from its first
 * byte instead: its policy allows the inline scripts by a nonce made for this response alone, which
 * React, React Router and the root layout write on each of them. What it streamed is kept in this
 * process, keyed by everything the render read (decision 0035): the same URL answered with the
 * same route data is sent those bytes again, with the hashes of their scripts, without a render.
 */
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

  const { contentSecurityPolicy, log } = loadContext.get(requestContext);
  const guarded = isGuarded(loadContext);
  const { loaderData, actionData, errors } = routerContext.staticHandlerContext;
  // Only reads of a built site: a form's answer carries what was posted, and the dev server's
  // components change under it.
  const key =
    guarded && request.method === "GET" && !import.meta.env.DEV
      ? renderKey({
          url: request.url,
          viewer: loadContext.get(sessionContext)?.user.id ?? null,
          status: responseStatusCode,
          loaderData,
          actionData,
          errors,
        })
      : null;
  const stored = key === null ? undefined : privateDocuments.get(key);
  if (stored) {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(stored.scriptHashes));
    return new Response(stored.body, { headers: responseHeaders, status: responseStatusCode });
  }
  const nonce = guarded ? randomBytes(18).toString("base64") : undefined;

  return new Promise<Response>((resolve, reject) => {
    let shellReady = false;
    let renderFailed = false;
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellReady = true;
          if (nonce === undefined) return;
          // Passes React's chunks on as they come, keeping a copy when the render may be reused.
          let copy: Buffer[] | null = key === null ? null : [];
          const body = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              copy?.push(chunk);
              callback(null, chunk);
            },
            final(callback) {
              clearTimeout(timeoutId);
              if (key !== null && copy && !renderFailed) {
                const html = Buffer.concat(copy);
                privateDocuments.set(key, {
                  body: html,
                  scriptHashes: inlineScriptHashes(html.toString("utf8")),
                });
              }
              copy = null;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // A CSP source like the hashes: the one nonce this document's inline scripts carry.
          responseHeaders.set("Content-Security-Policy", contentSecurityPolicy([`nonce-${nonce}`]));
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onAllReady() {
          if (nonce !== undefined) return;
          const chunks: Buffer[] = [];
          const sink = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              const html = Buffer.concat(chunks).toString("utf8");
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              responseHeaders.set(
                "Content-Security-Policy",
                contentSecurityPolicy(inlineScriptHashes(html)),
              );
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          renderFailed = true;
          // Errors in the shell reject and are logged by handleError; these are in boundaries.
          if (shellReady) log.error({ err: error }, "error while rendering");
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
