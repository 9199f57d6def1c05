import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { env } from "../env";
import { logger } from "../logger";
import { type Database, type DatabaseHandle, type Executor, migrate, openDatabase } from "./client";

export type { Database, Executor };

let current: DatabaseHandle | undefined;

/**
 * Opens the database of this process and applies pending migrations. Called once at start-up
 * (server or CLI) before anything serves requests; a second call returns the same handle.
 */
export async function initDatabase(): Promise<DatabaseHandle> {
  if (current) return current;
  const { DATA_DIR, DATABASE_URL, DATABASE_POOL_MAX } = env();
  const open = async () => {
    const handle = await openDatabase({
      dataDir: DATA_DIR,
      databaseUrl: DATABASE_URL,
      poolMax: DATABASE_POOL_MAX,
      onPoolError: (error) => logger().warn({ err: error }, "database connection lost"),
    });
    try {
      await migrate(handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  };
  // A new embedded database is created (initdb and every migration) by an instance that is then
  // closed, and opened again to serve: PGlite's WebAssembly memory only grows, and creating a
  // database grows it to about 800 MB, which a freshly started site would otherwise keep for
  // good; opened again, it holds about 300 MB, as after any restart (issue 35, point 2).
  if (!DATABASE_URL && isNewEmbeddedDatabase(DATA_DIR)) {
    await (await open()).close();
    // The closed instance's memory goes back only when the garbage collector next runs, which in
    // a site that has just started and waits for requests may be minutes away: run it now.
    collectGarbage();
  }
  current = await open();
  return current;
}

/**
 * One full garbage collection. `global.gc` exists only under --expose-gc, which `node server.js`
 * is not started with; the flag can be set at run time and the function taken from a new context,
 * as Jest's leak detector does. Used once, at the first start of an embedded database.
 */
function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

/** True when DATA_DIR holds no embedded database yet (PostgreSQL writes PG_VERSION first). */
function isNewEmbeddedDatabase(dataDir: string): boolean {
  return !fs.existsSync(path.join(dataDir, "db", "PG_VERSION"));
}

export function databaseHandle(): DatabaseHandle {
  if (!current) throw new Error("The database is not open: initDatabase() runs at start-up.");
  return current;
}

/** The Drizzle database for loaders, actions and domain modules. */
export function db(): Database {
  return databaseHandle().db;
}

export async function closeDatabase(): Promise<void> {
  const handle = current;
  current = undefined;
  await handle?.close();
}
