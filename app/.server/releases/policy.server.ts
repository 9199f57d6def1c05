import { eq } from "drizzle-orm";
import type { Platform } from "~/lib/platform";
import { type Database, db as defaultDb } from "../db";
import { updatePolicies } from "../db/schema";
import { selectRelease } from "./feeds/select";
import { releasesChanged } from "./queries.server";
import { candidatesOf, releaseSnapshot } from "./release-cache.server";
import { isOlder, isVersion } from "./versions";

export async function minimumVersions(
  database: Database = defaultDb(),
): Promise<Partial<Record<Platform, string>>> {
  const rows = await database.select().from(updatePolicies);
  return Object.fromEntries(rows.map((row) => [row.platform, row.minimumVersion]));
}

/** Sets (or with null clears) the oldest version still supported on a platform. */
export async function setMinimumVersion(
  platform: Platform,
  version: string | null,
  database: Database = defaultDb(),
): Promise<void> {
  // Every process's feeds and /api/desktop/me mark older apps at once (release-cache.server.ts).
  if (version === null) {
    await database.delete(updatePolicies).where(eq(updatePolicies.platform, platform));
    await releasesChanged(database);
    return;
  }
  await database
    .insert(updatePolicies)
    .values({ platform, minimumVersion: version })
    .onConflictDoUpdate({
      target: updatePolicies.platform,
      set: { minimumVersion: version, updatedAt: new Date() },
    });
  await releasesChanged(database);
}

export interface UpdateStatus {
  latest: string | null;
  minimum: string | null;
  /** The reported version is below the platform's minimum: the app must update before use. */
  required: boolean;
}

/**
 * What `/api/desktop/me` tells an app of this platform and version about updates, from the
 * releases kept in memory (no query).
 */
export async function updateStatusFor(
  platform: string,
  currentVersion: string,
  clientId: string,
  database?: Database,
): Promise<UpdateStatus> {
  if (platform !== "mac" && platform !== "windows")
    return { latest: null, minimum: null, required: false };
  const snapshot = await releaseSnapshot(database);
  const minimum = snapshot.minimums[platform] ?? null;
  const selection = selectRelease(candidatesOf(snapshot, "stable"), {
    channel: "stable",
    usable: (asset) => asset.platform === platform && asset.kind !== "blockmap",
    clientId,
  });
  const required =
    minimum !== null && isVersion(currentVersion) && isOlder(currentVersion, minimum);
  return { latest: selection?.release.version ?? null, minimum, required };
}
