import { and, desc, eq, inArray } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { onPublicContentChange, publicContentChanged } from "../http/public-content.server";
import {
  type Release,
  type ReleaseChannel,
  type ReleaseStatus,
  releaseAssets,
  releases,
} from "../db/schema";
import { channelsOf, type ReleaseWithAssets } from "./feeds/select";
import { compareVersionsDesc } from "./versions";

export type { ReleaseWithAssets } from "./feeds/select";

async function withAssets(database: Database, rows: Release[]): Promise<ReleaseWithAssets[]> {
  if (rows.length === 0) return [];
  const assets = await database
    .select()
    .from(releaseAssets)
    .where(
      inArray(
        releaseAssets.releaseId,
        rows.map((row) => row.id),
      ),
    );
  return rows.map((row) => ({
    ...row,
    assets: assets.filter((asset) => asset.releaseId === row.id),
  }));
}

/** Releases in the given statuses, newest version first, with their files. */
export async function listReleases(
  statuses: readonly ReleaseStatus[],
  database: Database = defaultDb(),
): Promise<ReleaseWithAssets[]> {
  const rows = await database
    .select()
    .from(releases)
    .where(inArray(releases.status, [...statuses]))
    .orderBy(desc(releases.publishedAt));
  const sorted = rows.sort((a, b) => compareVersionsDesc(a.version, b.version));
  return withAssets(database, sorted);
}

/** What a channel's feeds choose from: its published releases (paused ones are filtered later). */
export async function feedCandidates(
  channel: ReleaseChannel,
  database: Database = defaultDb(),
): Promise<ReleaseWithAssets[]> {
  const rows = await database
    .select()
    .from(releases)
    .where(and(eq(releases.status, "published"), inArray(releases.channel, channelsOf(channel))));
  return withAssets(
    database,
    rows.sort((a, b) => compareVersionsDesc(a.version, b.version)),
  );
}

/**
 * The release new visitors download: the newest release of the channel that is published, not
 * paused and rolled out to everyone (a staged release reaches new installs when it reaches 100 %).
 */
export async function latestRelease(
  channel: ReleaseChannel = "stable",
  database: Database = defaultDb(),
): Promise<ReleaseWithAssets | null> {
  const candidates = await feedCandidates(channel, database);
  return (
    candidates.find(
      (release) =>
        release.channel === channel &&
        !release.paused &&
        release.rolloutPercent === 100 &&
        release.assets.some((asset) => asset.kind === "installer"),
    ) ?? null
  );
}

export async function findReleaseByVersion(
  version: string,
  database: Database = defaultDb(),
): Promise<ReleaseWithAssets | null> {
  const rows = await database.select().from(releases).where(eq(releases.version, version)).limit(1);
  return (await withAssets(database, rows))[0] ?? null;
}

export async function findReleaseById(
  id: string,
  database: Database = defaultDb(),
): Promise<ReleaseWithAssets | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const rows = await database.select().from(releases).where(eq(releases.id, id)).limit(1);
  return (await withAssets(database, rows))[0] ?? null;
}

/** A published release's file by name (what /releases/:version/:file serves). Drafts and pulled releases have none. */
export async function findPublishedFile(
  version: string,
  fileName: string,
  database: Database = defaultDb(),
) {
  const release = await findReleaseByVersion(version, database);
  if (!release || release.status !== "published") return null;
  const asset = release.assets.find((candidate) => candidate.fileName === fileName);
  return asset ? { release, asset } : null;
}

export async function hasAnyRelease(database: Database = defaultDb()): Promise<boolean> {
  const rows = await database.select({ id: releases.id }).from(releases).limit(1);
  return rows.length > 0;
}

let cache: { at: number; value: ReleaseWithAssets | null } | undefined;
const CACHE_MS = 30_000;

/**
 * The latest stable release, remembered for 30 s: the download page is public and busy. A change
 * made in any process on the database forgets it at once (`releasesChanged`, and the notice
 * followed in app/.server/http/public-content.ts).
 */
export async function latestStableCached(): Promise<ReleaseWithAssets | null> {
  const now = Date.now();
  if (!cache || now - cache.at > CACHE_MS) {
    try {
      cache = { at: now, value: await latestRelease("stable") };
    } catch (error) {
      // The database is away: the download page keeps showing what it last knew.
      if (!cache) throw error;
    }
  }
  return cache.value;
}

onPublicContentChange(() => {
  cache = undefined;
});

/** After a release change is committed: every process forgets what it remembered of releases. */
export function releasesChanged(database: Database = defaultDb()): Promise<void> {
  return publicContentChanged(database);
}
