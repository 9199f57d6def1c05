import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EngineCase } from "./engines";
import { freePort } from "./postgres";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface RunningTestServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Every line the server wrote to stdout and stderr so far. */
  output(): string;
  /** Parsed JSON log lines. */
  logs(): Record<string, unknown>[];
  /** Sends a signal and resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
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
  const template = process.env[DATA_TEMPLATE_ENV];
  const dataDir = tempDataDir();
  if (template && !env?.DATABASE_URL) fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

/** `startServer` on a fresh, empty database of `engine` (its DATABASE_URL; `env` may add more). */
export async function startServerOn(
  engine: EngineCase,
  options: StartOptions = {},
): Promise<RunningTestServer> {
  return startServer({
    ...options,
    env: { DATABASE_URL: await engine.freshDatabaseUrl(), ...options.env },
  });
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

/** The port found free was taken by another process before the server could listen on it. */
class PortTakenError extends Error {}

/**
 * Starts the production build (`node server.js`) on a free port and waits until it listens. Test
 * files start servers side by side, so a port found free can be taken before the server binds
 * it: then it starts again on another (unless the test chose the port).
 */
export async function startServer(options: StartOptions = {}): Promise<RunningTestServer> {
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

async function startOnce(options: StartOptions, dataDir: string): Promise<RunningTestServer> {
  // A known port up front, so SITE_URL (Better Auth's origin check, canonical URLs) matches it.
  const chosenPort = await freePort();
  const child = spawn(process.execPath, ["server.js"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      // The run's temporary folder (scripts/lib/scratch.ts), so what the server writes there goes too.
      TMPDIR: process.env.TMPDIR,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(chosenPort),
      SITE_URL: `http://127.0.0.1:${chosenPort}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // Required with DATABASE_URL; a test that wants the generated one passes undefined.
      BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
      // Test files call the APIs many times a minute from one address; the limit has its own test.
      API_RATE_LIMIT: "10000",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );

  const logs = () =>
    output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const check = () => {
      const listening = logs().find(
        (line) => typeof line.port === "number" && String(line.msg).startsWith("listening"),
      );
      if (listening) {
        clearTimeout(timer);
        resolve(listening.port as number);
      }
    };
    child.stdout.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      if (options.expectExit) resolve(-1);
      else if (/EADDRINUSE/.test(output) && options.env?.PORT === undefined)
        reject(new PortTakenError(output));
      else reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    process: child,
    output: () => output,
    logs,
    async stop(signal = "SIGTERM") {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      return { code, ms: Date.now() - started };
    },
  };
}
