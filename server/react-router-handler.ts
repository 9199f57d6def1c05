/**
 * React Router's express adapter (`@react-router/express` 7.18), with the one change this site
 * needs: the response body is written without keeping what was written (issue 58; decision 0067).
 * The adapter's `writeReadableStreamToWritable` races every read against one promise that only
 * settles on a socket error (`Promise.race([read, writableError])`); each race leaves a reaction
 * on that promise holding the chunk it read, so a 200 MB download held 200 MB until it ended. Here
 * a read is awaited alone, and the wait for `drain` ends on `close` too. The request side is the
 * adapter's own code (host and port, the abort on close, the body as a stream).
 */
import { createReadableStreamFromReadable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler as createRouterHandler } from "react-router";

type LoadContext = Parameters<ReturnType<typeof createRouterHandler>>[1];

export function createRequestHandler(options: {
  build: Parameters<typeof createRouterHandler>[0];
  mode?: string;
  getLoadContext?: (
    req: ExpressRequest,
    res: ExpressResponse,
  ) => LoadContext | Promise<LoadContext>;
}) {
  const handleRequest = createRouterHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const request = routerRequestOf(req, res);
      const loadContext = await options.getLoadContext?.(req, res);
      const response = await handleRequest(request, loadContext);
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function headersOf(requestHeaders: ExpressRequest["headers"]): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(requestHeaders)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

/** The adapter's request: the address as the client named it, aborted when the client goes. */
function routerRequestOf(req: ExpressRequest, res: ExpressResponse): Request {
  const [, forwardedPort] = req.app?.enabled("trust proxy")
    ? (req.get("X-Forwarded-Host")?.split(":") ?? [])
    : [];
  const [, hostPortText] = req.get("host")?.split(":") ?? [];
  const forwarded = Number.parseInt(forwardedPort ?? "", 10);
  const hostPort = Number.parseInt(hostPortText ?? "", 10);
  const port = Number.isSafeInteger(forwarded)
    ? forwarded
    : Number.isSafeInteger(hostPort)
      ? hostPort
      : "";
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  const url = new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  let controller: AbortController | null = new AbortController();
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: headersOf(req.headers),
    signal: controller.signal,
  };
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

const isClosed = (res: ExpressResponse) => res.destroyed || res.writableEnded;

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (isClosed(res)) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeBody(response.body, res);
  } catch (error) {
    if (isClosed(res)) return;
    throw error;
  }
}

/** Resolves when the response can take more (`drain`) or never will (`close`). */
function writable(res: ExpressResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * The body to the response, a chunk at a time, as fast as the client takes it: nothing read is
 * kept once written, and a response that closes stops the reading (the body is cancelled).
 */
async function writeBody(body: ReadableStream<Uint8Array>, res: ExpressResponse): Promise<void> {
  const reader = body.getReader();
  const flushable = res as ExpressResponse & { flush?: () => void };
  try {
    for (;;) {
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) {
        res.end();
        return;
      }
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const more = res.write(value);
      // The compression middleware's flush: a streamed page reaches the browser as it renders.
      flushable.flush?.();
      if (!more) await writable(res);
    }
  } catch (error) {
    reader.cancel(error).catch(() => {});
    res.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}
