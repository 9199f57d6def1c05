/**
 * What a server does to start, apart from answering requests: the database and the chores that
 * must be done before the first request (migrations, the demo release, keys and files left by an
 * earlier version), the port, and the work that needs the port (the job worker, the sandbox's
 * webhooks to this server). server/app.ts runs them in this order; server/shutdown.ts gives back
 * what they opened.
 */
import type http from "node:http";
import { setSelfUrl } from "~/.server/billing/provider.server";
import { initDatabase } from "~/.server/db";
import type { DatabaseHandle } from "~/.server/db/client";
import { sealPlaintextKeys } from "~/.server/desktop/license.server";
import { followPublicContentChanges } from "~/.server/http/public-content.server";
import { startJobWorker } from "~/.server/jobs";
import type { Logger } from "~/.server/logger";
import { ensureDemoRelease } from "~/.server/releases/demo.server";
import { backfillFileHashes } from "~/.server/releases/manage.server";
import { sweepReleaseUploads } from "~/.server/releases/storage/index.server";
import type { AppState } from "./express-app";

export interface Booted {
  database: DatabaseHandle;
  /** Stops following other processes' notices of changed public content. */
  unfollow(): Promise<void>;
}

/** Opens the database (applying migrations), then the chores before the first request. */
export async function bootChores(log: Logger): Promise<Booted> {
  const database = await initDatabase();
  log.info({ engine: database.engine, location: database.location }, "database ready");
  if (database.engine === "pglite") await ensureDemoRelease();
  const sealed = await sealPlaintextKeys();
  if (sealed > 0) log.info({ keys: sealed }, "encrypted signing keys stored in plain text");
  const hashed = await backfillFileHashes();
  if (hashed > 0) log.info({ files: hashed }, "recorded the SHA-512 of earlier release files");
  const swept = await sweepReleaseUploads();
  if (swept > 0) log.info({ files: swept }, "removed the files of uploads that never finished");
  // Releases published by another instance, a worker beside this one or the CLI show at once.
  const unfollow = await followPublicContentChanges(database);
  return { database, unfollow };
}

/** Binds the port; resolves with the port bound (PORT=0 picks one), rejects if it is taken. */
export async function listen(server: http.Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === "object" && address ? address.port : port;
}

/**
 * Once the port is bound: this server's own loopback URL (the payment sandbox delivers its
 * webhooks there), then the job worker, whose jobs may call it.
 */
export function startWork(
  state: AppState,
  { host, port, jobsWorker }: { host: string; port: number; jobsWorker: boolean },
  log: Logger,
): void {
  const loopback =
    host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  state.selfUrl = `http://${loopback}:${port}`;
  setSelfUrl(state.selfUrl);
  if (jobsWorker) startJobWorker(log);
}
