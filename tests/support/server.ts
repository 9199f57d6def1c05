import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unsettledJobCount } from "~/.server/jobs/queue.server";
import { SCRATCH_ENV } from "../../scripts/lib/scratch";
import { childProcesses } from "./child-processes";
import type { EngineCase } from "./engines";
import { freePort } from "./postgres";
import {
  pendingDeliveries,
  type SettleOptions,
  startSiteInProcess,
  waitUntilSettled,
} from "./site";
import { readDatabase } from "./test-database";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface RunningTestServer {
  url: string;
  port: number;
  dataDir: string;
  /** Every line the server logged so far. */
  output(): string;
  /** Parsed JSON log lines. */
  logs(): Record<string, unknown>[];
  /**
   * Stops the server (SIGTERM's shutdown) and resolves with its exit code and how long it took.
   * Other signals need a process: `startServerProcess`.
   */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
  /**
   * Resolves once no job is running or due and the payment sandbox has no webhook left to
   * deliver (tests/support/site.ts): count "exactly once" after this, never after a sleep.
   */
  jobsSettled(options?: SettleOptions): Promise<void>;
  /**
   * Runs one SQL statement on the site's own database, as an operator (or a failing disk) would
   * change it under the running site: for faults a test injects (a trigger that refuses a write).
   * In-process sites only. Resolves with the rows a query returns.
   */
  sql(statement: string): Promise<Record<string, unknown>[]>;
}

/** A server in a process of its own: for signals, `kill -9`, clocks and several instances. */
export interface TestServerProcess extends RunningTestServer {
  process: ChildProcess;
}

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string | undefined>;
  /** Resolve once the process exits instead of once it listens (for start-up failures). */
  expectExit?: boolean;
}

/** An empty data folder: the server starts as on a new machine. */
export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "pinout-data-"));
}

/**
 * A data folder for a test that names its own (to read its files or restart on it) and does not
 * test a first start: on PGlite a copy of the run's started site, what `startServer` gives a test
 * that names none (a first start on an empty folder runs initdb and every migration, about 4 s
 * of CPU more); for PostgreSQL an empty one, the data being in the database.
 */
export function startedDataDir(engine?: Pick<EngineCase, "name">): string {
  const template = process.env[DATA_TEMPLATE_ENV];
  const dataDir = tempDataDir();
  if (template && (engine?.name ?? "pglite") === "pglite")
    fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

/** Set by the global setup: the data folder of an embedded site that has started once. */
export const DATA_TEMPLATE_ENV = "PINOUT_TEST_DATA_TEMPLATE";

/**
 * The folder a test server gets when the test names none. On the embedded database it is a copy
 * of a site that has started once (migrated, demo release published, keys made): a start then
 * costs what a restart does, about 1.5 s instead of 4 (most of a full run's server time). A test
 * of what a first start does passes `tempDataDir()`; with DATABASE_URL the database is new and
 * empty, so the folder is too.
 */
function defaultDataDir(env: StartOptions["env"]): string {
  return startedDataDir({ name: env?.DATABASE_URL ? "postgres" : "pglite" });
}

/** `startServer` on a fresh database of `engine` (its DATABASE_URL; `env` may add more). */
export async function startServerOn(
  engine: EngineCase,
  options: StartOptions = {},
): Promise<RunningTestServer> {
  return startServer({
    ...options,
    env: { DATABASE_URL: await engine.freshDatabaseUrl(), ...options.env },
  });
}

/** The environment every test server starts with, before the test's own. */
function baseEnv(port: number, dataDir: string): Record<string, string | undefined> {
  return {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    // Required with DATABASE_URL; a test that wants the generated one passes undefined.
    BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
    // Test files call the APIs many times a minute from one address; the limit has its own test.
    API_RATE_LIMIT: "10000",
  };
}

function parseLogs(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Starts the production build inside this test worker (tests/support/site.ts) on a free port and
 * resolves once it listens: the way every HTTP test starts the site unless it needs a process.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningTestServer> {
  if (!hasBuild()) {
    throw new Error("Integration tests need the production build: run `npm run build` first.");
  }
  if (options.expectExit) {
    throw new Error("A start-up failure ends a process: use startServerProcess for it.");
  }
  const dataDir = options.dataDir ?? defaultDataDir(options.env);
  shareOutbox(dataDir, options.env?.DATABASE_URL);
  for (let attempt = 1; ; attempt += 1) {
    const chosenPort = options.env?.PORT ? Number(options.env.PORT) : await freePort();
    try {
      const site = await startSiteInProcess(
        { ...baseEnv(chosenPort, dataDir), ...options.env },
        chosenPort,
      );
      let stopped: Promise<{ code: number | null; ms: number }> | undefined;
      return {
        url: site.url,
        port: site.port,
        dataDir,
        output: site.output,
        logs: () => parseLogs(site.output()),
        jobsSettled: site.jobsSettled,
        sql: site.sql,
        stop(signal = "SIGTERM") {
          if (signal !== "SIGTERM" && signal !== "SIGINT") {
            throw new Error(
              `${signal} needs a process: start this server with startServerProcess.`,
            );
          }
          stopped ??= (async () => {
            const started = Date.now();
            try {
              await site.running.shutdown(signal);
              return { code: 0, ms: Date.now() - started };
            } catch {
              return { code: 1, ms: Date.now() - started };
            }
          })();
          return stopped;
        },
      };
    } catch (error) {
      // Another worker took the port between the look and the listen: try another.
      const taken = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
      if (!taken || options.env?.PORT !== undefined || attempt === 3) throw error;
    }
  }
}

export function hasBuild(): boolean {
  return fs.existsSync(path.join(ROOT, "build", "server", "index.js"));
}

/**
 * Servers on one database share one mail outbox, as instances share one mail relay: a mail job
 * is run by whichever instance's worker claims it first, so with an outbox per process a test
 * reading the one it asked would miss the mail whenever another won the race. `DATA_DIR/mail` is
 * a link to a folder per DATABASE_URL (unless the folder is already there).
 */
function shareOutbox(dataDir: string, databaseUrl: string | undefined) {
  if (!databaseUrl) return;
  const mail = path.join(dataDir, "mail");
  if (fs.lstatSync(mail, { throwIfNoEntry: false })) return;
  const key = createHash("sha256").update(databaseUrl).digest("hex").slice(0, 16);
  const shared = path.join(os.tmpdir(), `pinout-outbox-${key}`);
  fs.mkdirSync(shared, { recursive: true, mode: 0o700 });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.symlinkSync(shared, mail);
}

/** Server processes still running: killed after their file (fresh-modules.ts) or at exit. */
const running = childProcesses();

/** The port found free was taken by another process before the server could listen on it. */
class PortTakenError extends Error {}

/**
 * Starts the production build as a process (`node server.js`) on a free port and waits until it
 * listens: for what needs a process (signals, `kill -9`, libfaketime, several instances, start-up
 * failures; decision 0036). Test files start servers side by side, so a port found free can be
 * taken before the server binds it: then it starts again on another (unless the test chose it).
 */
export async function startServerProcess(options: StartOptions = {}): Promise<TestServerProcess> {
  if (!hasBuild()) {
    throw new Error("Integration tests need the production build: run `npm run build` first.");
  }
  const dataDir = options.dataDir ?? defaultDataDir(options.env);
  shareOutbox(dataDir, options.env?.DATABASE_URL);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(options, dataDir);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 3) throw error;
    }
  }
}

async function startOnce(options: StartOptions, dataDir: string): Promise<TestServerProcess> {
  // A known port up front, so SITE_URL (Better Auth's origin check, canonical URLs) matches it.
  const chosenPort = await freePort();
  // The log goes to a file, not a pipe: a server whose reader is gone (a test worker that timed
  // out) must never block on a full pipe, and must still exit on SIGTERM.
  const logFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), "pinout-server-log-")),
    "server.log",
  );
  const logFd = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, ["server.js"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      // The run's temporary folder (scripts/lib/scratch.ts), so what the server writes there goes
      // too, and the run's end finds the process by it if a test left it running.
      TMPDIR: process.env.TMPDIR,
      [SCRATCH_ENV]: process.env[SCRATCH_ENV],
      ...baseEnv(chosenPort, dataDir),
      ...options.env,
    },
    stdio: ["ignore", logFd, logFd],
  });
  fs.closeSync(logFd);
  running.add(child);
  const output = () => fs.readFileSync(logFile, "utf8");
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );

  const logs = () => parseLogs(output());

  const port = await new Promise<number>((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const listening = logs().find(
        (line) => typeof line.port === "number" && String(line.msg).startsWith("listening"),
      );
      if (listening) {
        clearInterval(poll);
        resolve(listening.port as number);
      } else if (Date.now() - started > 90_000) {
        clearInterval(poll);
        child.kill("SIGKILL");
        reject(new Error(`server did not start:\n${output()}`));
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(poll);
      if (options.expectExit) resolve(-1);
      else if (/EADDRINUSE/.test(output()) && options.env?.PORT === undefined)
        reject(new PortTakenError(output()));
      else reject(new Error(`server exited with ${code} before listening:\n${output()}`));
    });
  });

  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    dataDir,
    process: child,
    output,
    logs,
    sql: () => {
      throw new Error("sql() needs the in-process site: use startServer.");
    },
    jobsSettled: (settle) => {
      // The embedded database admits one process at a time: only PostgreSQL can be read beside it.
      const databaseUrl = options.env?.DATABASE_URL;
      if (!databaseUrl) {
        throw new Error("jobsSettled on a server process needs PostgreSQL (DATABASE_URL).");
      }
      return waitUntilSettled(
        {
          unsettledJobs: (filter) => unsettledJobsAt(databaseUrl, filter),
          pendingDeliveries: () => pendingDeliveries(url),
        },
        settle,
      );
    },
    async stop(signal = "SIGTERM") {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // server.js ends itself within 5 s of a signal; past 30 s something is wrong, and a test
      // must not leave the process behind to find out.
      const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      const code = await exited;
      clearTimeout(killer);
      return { code, ms: Date.now() - started };
    },
  };
}

/** The job queue of a server process on PostgreSQL, read beside it (as site.ts reads its own). */
function unsettledJobsAt(
  databaseUrl: string,
  filter: Parameters<typeof unsettledJobCount>[1],
): Promise<number> {
  return readDatabase({ dataDir: "", databaseUrl }, (database) =>
    unsettledJobCount(database, filter),
  );
}
