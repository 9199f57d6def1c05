import { eq } from "drizzle-orm";
import type { Platform } from "~/lib/platform";
import { type Database, db as defaultDb } from "../db";
import { updatePolicies } from "../db/schema";
import { selectRelease } from "./feeds/select";
import { feedCandidates } from "./queries.server";
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
  if (version === null) {
    await database.delete(updatePolicies).where(eq(updatePolicies.platform, platform));
    return;
  }
  await database
    .insert(updatePolicies)
    .values({ platform, minimumVersion: version })
    .onConflictDoUpdate({
      target: updatePolicies.platform,
      set: { minimumVersion: version, updatedAt: new Date() },
    });
}

export interface UpdateStatus {
  latest: string | null;
  minimum: string | null;
  /** The reported version is below the platform's minimum: the app must update before use. */
  required: boolean;
}

/** What `/api/desktop/me` tells an app of this platform and version about updates. */
export async function updateStatusFor(
  platform: string,
  currentVersion: string,
  clientId: string,
  database: Database = defaultDb(),
): Promise<UpdateStatus> {
  if (platform !== "mac" && platform !== "windows")
    return { latest: null, minimum: null, required: false };
  const [minimums, candidates] = await Promise.all([
    minimumVersions(database),
    feedCandidates("stable", database),
  ]);
  const minimum = minimums[platform] ?? null;
  const selection = selectRelease(candidates, {
    channel: "stable",
    usable: (asset) => asset.platform === platform && asset.kind !== "blockmap",
    clientId,
  });
  const required =
    minimum !== null && isVersion(currentVersion) && isOlder(currentVersion, minimum);
  return { latest: selection?.release.version ?? null, minimum, required };
}
