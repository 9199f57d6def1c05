// Starts the site: `npm start` (production build) or `npm run dev` (Vite, hot reload).
// Everything but process wiring lives in server/app.ts and the modules it composes; with
// WEB_CONCURRENCY > 1 this process is the primary of that many workers (server/cluster.ts), each
// of which runs this file again.
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import v8 from "node:v8";

process.env.NODE_ENV ??= "production";
const development = process.env.NODE_ENV === "development";

// The embedded default is sized for a small machine (decision 0051): V8 lets its heap grow to 1.5
// times what the last collection left live, instead of up to four times, so the site stays under
// 384 MB under load (about 500 MB otherwise) at about the same throughput. A site on PostgreSQL
// is the one to scale, and keeps V8's defaults. Set here, in the process's entry, not in the
// tests' in-process sites.
if (!process.env.DATABASE_URL) v8.setFlagsFromString("--heap-growing-percent=50");

async function load() {
  if (development) {
    const { createServer } = await import("vite");
    const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
    const mod = await vite.ssrLoadModule("./server/app.ts");
    return { mod, options: { vite } };
  }
  const entry = new URL("./build/server/index.js", import.meta.url);
  if (!existsSync(entry)) {
    throw new Error("No production build found: run `npm run build` first.");
  }
  return { mod: await import(entry.href), options: {} };
}

/** @type {{ shutdown(reason: string): Promise<void> } | undefined} */
let running;
/** @type {NodeJS.Signals | undefined} */
let stopRequested;

/** How long a server may take to stop, whatever happens while closing. */
const STOP_CEILING_MS = 5_000;

/** @param {NodeJS.Signals} signal */
function stop(signal) {
  if (stopRequested) process.exit(1);
  stopRequested = signal;
  // A hard ceiling. A primary waits for its workers, whose own ceilings start when its message
  // reaches them: it waits a little longer, so a worker still starting (slow on a busy machine)
  // ends by its own ceiling and the primary still exits cleanly, never before its workers.
  const primary = cluster.isPrimary && Object.keys(cluster.workers ?? {}).length > 0;
  setTimeout(() => process.exit(1), STOP_CEILING_MS + (primary ? 2_000 : 0)).unref();
  // Still starting: start() sees the request below and stops as soon as it has started.
  if (!running) return;
  running.shutdown(signal).then(
    () => process.exit(0),
    (/** @type {unknown} */ error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

// Installed before anything opens, so a signal during start-up still releases the database lock.
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// A worker is asked to stop by its primary with a message: Ctrl-C also sends it SIGINT directly,
// and a second signal would end it at once.
process.on("message", (/** @type {unknown} */ message) => {
  if (message === "pinout:shutdown" && !stopRequested) stop("SIGTERM");
});

try {
  const { mod, options } = await load();
  running =
    cluster.isPrimary && mod.serverProcesses(options) > 1
      ? await mod.startPrimary()
      : await mod.start(options);
  if (stopRequested) {
    const signal = stopRequested;
    stopRequested = undefined;
    stop(signal);
  }
} catch (error) {
  // Start-up failures (bad configuration, database in use) end the process with a plain message.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
