/** Applies pending migrations to the configured database, then exits. Takes the same lock as the server. */
import { closeDatabase, initDatabase } from "~/.server/db";

try {
  const handle = await initDatabase();
  console.log(`migrations applied (${handle.engine}: ${handle.location})`);
  await closeDatabase();
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
