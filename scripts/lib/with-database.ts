import { closeDatabase, initDatabase } from "~/.server/db";

/**
 * Opens the site's database as the server does (taking its lock: with the embedded database, stop
 * the site first), runs `work`, and closes it again whatever happens.
 */
export async function withDatabase<T>(work: () => Promise<T>): Promise<T> {
  await initDatabase();
  try {
    return await work();
  } finally {
    await closeDatabase();
  }
}
