/**
 * How a server stops (server.js calls `shutdown` on SIGTERM or SIGINT, a cluster worker on its
 * primary's message): no new connections, the requests in flight finished or, past
 * SHUTDOWN_TIMEOUT_MS, cut; then what start-up opened (server/boot.ts) is given back, the database
 * last. Meanwhile every answer says `Connection: close` (server/finish.ts) and /readyz says 503.
 */
import type http from "node:http";
import { closeDatabase } from "~/.server/db";
import { stopJobWorker } from "~/.server/jobs";
import type { Logger } from "~/.server/logger";
import { closeCounters } from "~/.server/releases/counters.server";
import type { Booted } from "./boot";
import type { AppState } from "./express-app";

/**
 * Gives back what start-up opened: after a shutdown, or when the port was taken (the embedded
 * database's lock above all, before the caller exits or tries another port). The job worker and
 * the sandbox stop first, and download counts are written once no request is left to add to
 * them, all before the database closes.
 */
export async function releaseBooted(booted: Booted, state: AppState): Promise<void> {
  await Promise.all([stopJobWorker(), state.closeSandbox?.(), booted.unfollow(), closeCounters()]);
  await closeDatabase();
}

export interface ShutdownParts {
  server: http.Server;
  state: AppState;
  log: Logger;
  /** How long requests in flight may take before their connections are closed. */
  timeoutMs: number;
  release(): Promise<void>;
}

/** The server's `shutdown(reason)`: the first call stops it, any later one waits for the same. */
export function gracefulShutdown({
  server,
  state,
  log,
  timeoutMs,
  release,
}: ShutdownParts): (reason: string) => Promise<void> {
  let closing: Promise<void> | undefined;
  return (reason) => {
    closing ??= (async () => {
      state.shuttingDown = true;
      log.info({ reason }, "shutting down: no new connections, finishing in-flight requests");
      // A keep-alive connection idle between requests would hold server.close() open.
      const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
      const force = setTimeout(() => {
        log.warn("shutdown timeout reached: closing remaining connections");
        server.closeAllConnections();
      }, timeoutMs);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      clearInterval(idleSweep);
      clearTimeout(force);
      await release();
      log.info("stopped");
    })();
    return closing;
  };
}
