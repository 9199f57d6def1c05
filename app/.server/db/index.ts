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
  current = handle;
  return current;
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
