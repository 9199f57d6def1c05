import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";

/**
 * A number that changes whenever public pages may change (a release published, paused or
 * pulled): the shared page cache (server/public-cache.ts) treats what it stored under an older
 * number as stale. A change made in any process on the same database reaches every other one
 * through NOTIFY, so all instances and workers show it at once.
 */
let generation = 0;
const subscribers = new Set<() => void>();

const CHANNEL = "pinout_public_content";
/** Tells this process's own notices apart from other processes'. */
const ORIGIN = randomUUID();

export function publicContentGeneration(): number {
  return generation;
}

/** `forget` runs whenever public content changed, here or in another process (a memo to drop). */
export function onPublicContentChange(forget: () => void): void {
  subscribers.add(forget);
}

function changed(): void {
  generation += 1;
  for (const forget of subscribers) forget();
}

/**
 * Called once a change to public content is committed: this process forgets at once, and the
 * notice tells the others. A failed notice does not undo the change; the others then see it when
 * their entries' short max-age runs out.
 */
export async function publicContentChanged(database: Database, log?: Logger): Promise<void> {
  changed();
  try {
    await database.execute(sql`select pg_notify(${CHANNEL}, ${ORIGIN})`);
  } catch (error) {
    log?.warn({ err: error }, "could not tell other processes that public content changed");
  }
}

/** Follows the changes other processes announce; resolves to a function that stops following. */
export function followPublicContentChanges(handle: DatabaseHandle): Promise<() => Promise<void>> {
  return handle.listen(CHANNEL, (payload) => {
    // null: the connection was lost for a while, so a notice may have been missed.
    if (payload !== ORIGIN) changed();
  });
}
