/**
 * The custom Node server, composed: boot chores (server/boot.ts), the request pipeline and its
 * doors (server/pipeline.ts), every answer finished by server/finish.ts, and the graceful stop
 * (server/shutdown.ts). Bundled with the routes into build/server/index.js (see vite.config.ts)
 * and started by server.js; in development server.js loads it through Vite instead. Its exports
 * are the bundle's: what server.js and the in-process test harness call.
 */
import http from "node:http";
import type { DestinationStream } from "pino";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { DatabaseHandle } from "~/.server/db/client";
import { configureEnv, env } from "~/.server/env";
import { configureLogDestination, logger } from "~/.server/logger";
import { bootChores, listen, startWork } from "./boot";
import { type Primary, startWorkers } from "./cluster";
import type { AppState, BuildSource } from "./express-app";
import { createPipeline } from "./pipeline";
import { gracefulShutdown, releaseBooted } from "./shutdown";

export interface StartOptions {
  /** Vite's dev server, in development only. */
  vite?: ViteDevServer;
  /**
   * The environment instead of process.env, and where log lines go instead of stdout: the
   * in-process test harness (tests/support/site.ts) runs several sites in one process, each from
   * its own copy of this bundle. server.js passes neither.
   */
  env?: Record<string, string | undefined>;
  logDestination?: DestinationStream;
}

export interface RunningServer {
  server: http.Server;
  /** This server's database (the test harness reads its job queue). */
  database: DatabaseHandle;
  shutdown(reason: string): Promise<void>;
}

/** The build to serve: resolved once in production, looked up per request under Vite. */
async function serverBuild(options: StartOptions): Promise<BuildSource> {
  const load = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
  return options.vite ? load : await load();
}

/**
 * How many server processes to run (WEB_CONCURRENCY, validated with the rest of the environment):
 * server.js forks that many workers through `startPrimary` when it is more than one.
 */
export function serverProcesses(options: StartOptions = {}): number {
  return options.vite ? 1 : env().WEB_CONCURRENCY;
}

/** The primary of several server processes (server/cluster.ts): it forks, watches and stops them. */
export function startPrimary(): Promise<Primary> {
  return startWorkers(env().WEB_CONCURRENCY, logger());
}

/** Opens the database, applies migrations, then listens; resolves once the port is bound. */
export async function start(options: StartOptions = {}): Promise<RunningServer> {
  if (options.env) configureEnv(options.env);
  if (options.logDestination) configureLogDestination(options.logDestination);
  const config = env();
  const log = logger();
  const booted = await bootChores(log);

  const state: AppState = { shuttingDown: false };
  const pipeline = createPipeline({
    vite: options.vite,
    state,
    build: await serverBuild(options),
    log,
  });
  // 64 KB of headers, not Node's 16 KB: electron-updater's differential download asks for up to
  // 1,000 byte ranges in one Range header (issue 58; DOWNLOAD_MAX_RANGES).
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, pipeline.serve);
  server.on("checkContinue", pipeline.checkContinue);
  const release = () => releaseBooted(booted, state);

  let port: number;
  try {
    port = await listen(server, config.HOST, config.PORT);
  } catch (error) {
    await release();
    throw error;
  }
  startWork(state, { host: config.HOST, port, jobsWorker: config.JOBS_WORKER }, log);
  // The address to open is SITE_URL, not the socket's: sign-in cookies and mailed links belong
  // to SITE_URL's origin, so a newcomer who opened 127.0.0.1 would land signed out on localhost.
  log.info(
    { host: config.HOST, port, siteUrl: config.SITE_URL, buildId: __BUILD_ID__ },
    `listening on http://${config.HOST}:${port}; open ${config.SITE_URL}`,
  );

  const shutdown = gracefulShutdown({
    server,
    state,
    log,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    release,
  });
  return { server, database: booted.database, shutdown };
}
