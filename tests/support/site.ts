/**
 * The in-process site: the production build (build/server/index.js, the same `start` that
 * server.js calls, with its express app, fast answers, public cache, guards and job worker) run
 * inside the test worker on a port of its own. Each site is its own copy of the bundle: the file
 * is imported with a query naming the site, which Node treats as a new module, so each has its
 * own configuration, database handle, caches and worker (decision 0036). A start costs a database
 * open, not a Node process.
 *
 * What needs a process stays one (`startServerProcess` in ./server.ts): signals, `kill -9`,
 * clocks set by libfaketime, several processes on one PostgreSQL, start-up failures.
 */
import { sql } from "drizzle-orm";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SANDBOX_KEYS } from "~/.server/env";
import { unsettledJobCount } from "~/.server/jobs/queue.server";
import type { RunningServer, StartOptions as SiteStartOptions } from "../../server/app";
import { nativeImport } from "./native-import.mjs";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const ENTRY = pathToFileURL(path.join(ROOT, "build", "server", "index.js")).href;

interface ServerBundle {
  start(options: SiteStartOptions): Promise<RunningServer>;
}

// Node's own import, not Vitest's: Vitest would transform the bundle and key its cache without
// the query that makes each site a new instance.
const importBundle = nativeImport as (specifier: string) => Promise<ServerBundle>;

/**
 * Copies imported so far in this process. Kept on globalThis, not in this module: a worker runs
 * several test files one after the other and loads this module afresh for each, while Node's
 * module map (where each copy lives under its URL) lasts as long as the process. A count that
 * started again at 1 would hand a new site the previous file's copy, database closed.
 */
const registry = globalThis as { pinoutSiteCopies?: number };

export interface SettleOptions {
  /** Only these job kinds (one lane's); default every kind. */
  kinds?: readonly string[];
  /** Jobs due within this many milliseconds count as not settled yet (default 1 s). */
  withinMs?: number;
  /** Give up after this long (default 30 s): a queue that never settles fails the test. */
  timeoutMs?: number;
}

export interface InProcessSite {
  url: string;
  port: number;
  running: RunningServer;
  output(): string;
  jobsSettled(options?: SettleOptions): Promise<void>;
  sql(statement: string): Promise<Record<string, unknown>[]>;
}

/**
 * Starts a copy of the built site with `env` (the whole environment it sees: nothing comes from
 * process.env). Resolves once it listens; throws the start-up error otherwise.
 */
export async function startSiteInProcess(
  env: Record<string, string | undefined>,
  port: number,
): Promise<InProcessSite> {
  registry.pinoutSiteCopies = (registry.pinoutSiteCopies ?? 0) + 1;
  const bundle = await importBundle(`${ENTRY}?site=${process.pid}-${registry.pinoutSiteCopies}`);
  let output = "";
  const destination = { write: (line: string) => void (output += line) };
  const running = await bundle.start({ env, logDestination: destination });
  const address = running.server.address();
  const listening = typeof address === "object" && address ? address.port : port;
  const url = `http://127.0.0.1:${listening}`;
  return {
    url,
    port: listening,
    running,
    output: () => output,
    sql: async (statement) => {
      const result = (await running.database.db.execute(sql.raw(statement))) as {
        rows?: Record<string, unknown>[];
      };
      return result.rows ?? [];
    },
    jobsSettled: (options = {}) =>
      waitUntilSettled(
        {
          unsettledJobs: (filter) => unsettledJobCount(running.database.db, filter),
          pendingDeliveries: () => pendingDeliveries(url),
        },
        options,
      ),
  };
}

/** The due horizon of `waitUntilSettled` unless a test gives its own. */
const SETTLE_WITHIN_MS = 1_000;

/** What a queue is waiting on: jobs (and, with a site, its sandbox's webhook deliveries). */
export interface QueueProbe {
  unsettledJobs(filter: { kinds?: readonly string[]; withinMs: number }): Promise<number>;
  pendingDeliveries?(): Promise<number>;
}

/**
 * Waits until nothing is running or due (within `withinMs`, default 1 s, so a duplicate
 * scheduled a moment later still counts) and the sandbox has no webhook left to deliver, seen
 * twice in a row (a delivery landing between two looks enqueues a job). An "exactly once"
 * assertion made after this counts everything that was going to happen; after a sleep it would
 * miss whatever arrives later.
 */
export async function waitUntilSettled(
  probe: QueueProbe,
  options: SettleOptions = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let quietLooks = 0;
  for (;;) {
    const deliveries = (await probe.pendingDeliveries?.()) ?? 0;
    const jobs = await probe.unsettledJobs({
      kinds: options.kinds,
      withinMs: options.withinMs ?? SETTLE_WITHIN_MS,
    });
    quietLooks = deliveries === 0 && jobs === 0 ? quietLooks + 1 : 0;
    if (quietLooks >= 2) return;
    if (Date.now() > deadline) {
      throw new Error(
        `jobs did not settle: ${jobs} jobs running or due, ${deliveries} webhook deliveries pending`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const SANDBOX_AUTH = `Basic ${Buffer.from(
  `${SANDBOX_KEYS.RAZORPAY_KEY_ID}:${SANDBOX_KEYS.RAZORPAY_KEY_SECRET}`,
).toString("base64")}`;

/** Webhooks the built-in payment sandbox has queued and not yet delivered (0 without one). */
export async function pendingDeliveries(url: string): Promise<number> {
  const response = await fetch(`${url}/_sandbox/razorpay/control/webhooks`, {
    headers: { authorization: SANDBOX_AUTH },
  });
  if (!response.ok) {
    await response.body?.cancel();
    return 0;
  }
  const body = (await response.json()) as unknown;
  const items = (body as { items?: unknown[] } | null)?.items ?? [];
  return items.filter((item) => (item as { status?: string }).status === "pending").length;
}
