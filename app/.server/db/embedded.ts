/**
 * How the embedded database (PGlite) runs in this process: its PostgreSQL settings, the
 * WebAssembly compiler it uses, and where a new one is created. Each choice keeps the embedded
 * site small enough for a 256 MB machine (decisions 0042 and 0051).
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import v8 from "node:v8";

/**
 * PostgreSQL's settings inside PGlite: its own defaults, with a buffer pool of 16 MB instead of
 * 128 MB. The pool lives in the WebAssembly memory and is zeroed at start, so the default cost
 * about 300 MB of resident memory from the first request and half a second of CPU per open
 * (decision 0042); a page not in the pool is read through the operating system's file cache.
 */
export const EMBEDDED_SHARED_BUFFERS = "16MB";

const EXTRA_START_PARAMS = ["-c", `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`];

export function embeddedStartParams(PGlite: { defaultStartParams: readonly string[] }): string[] {
  return [...PGlite.defaultStartParams, ...EXTRA_START_PARAMS];
}

/**
 * V8's baseline WebAssembly compiler only. By default V8 also compiles PGlite's hot functions
 * again with its optimising compiler, which kept about 45 MB more resident for queries about a
 * fifth faster (decision 0051). Set before PGlite's module is compiled; it applies to this
 * process's WebAssembly, and PGlite is the only WebAssembly the site runs.
 */
export const EMBEDDED_WASM_FLAG = "--liftoff-only";

let flagSet = false;
export function selectBaselineWasmCompiler(): void {
  if (flagSet) return;
  v8.setFlagsFromString(EMBEDDED_WASM_FLAG);
  flagSet = true;
}

/** The longest a new database's creation may take before it is abandoned (it takes seconds). */
const CREATE_TIMEOUT_MS = 120_000;

// CommonJS, run with `node -e`: its arguments are PGlite's module, the folder and the parameters.
const CREATE_SCRIPT = `
const [modulePath, dbPath, params] = process.argv.slice(1);
const { PGlite } = require(modulePath);
(async () => {
  const db = new PGlite(dbPath, { startParams: [...PGlite.defaultStartParams, ...JSON.parse(params)] });
  await db.waitReady;
  await db.close();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

/**
 * Creates a new embedded database (PostgreSQL's initdb) at `dbPath` in a child process. Creating
 * one grows PGlite's WebAssembly memory to about 600 MB and leaves about 60 MB of this process's
 * native heap fragmented for good, even once that instance is closed; a child gives all of it
 * back when it exits, so a site's first start is as small as every later one (issue 35, point 2).
 * The caller holds the folder's lock and opens the database afterwards (migrations run there).
 */
export function createEmbeddedDatabase(dbPath: string): Promise<void> {
  const modulePath = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const child = spawn(
    process.execPath,
    [
      EMBEDDED_WASM_FLAG,
      "-e",
      CREATE_SCRIPT,
      modulePath,
      dbPath,
      JSON.stringify(EXTRA_START_PARAMS),
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  // A server stopped while it starts takes its child with it.
  const killChild = () => child.kill("SIGKILL");
  process.once("exit", killChild);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`creating the embedded database at ${dbPath} took over 120 s`));
    }, CREATE_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      process.removeListener("exit", killChild);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `creating the embedded database at ${dbPath} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`,
          ),
        );
    });
  });
}
