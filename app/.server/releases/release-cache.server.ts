import type { Platform } from "~/lib/platform";
import { type Database, db as defaultDb } from "../db";
import { type ReleaseChannel, updatePolicies } from "../db/schema";
import { onPublicContentChange, publicContentGeneration } from "../http/public-content.server";
import { channelsOf } from "./feeds/select";
import { listReleases, type ReleaseWithAssets } from "./queries.server";

/**
 * What every update poll and `/api/desktop/me` decide from: the published releases with their
 * files, and the minimum version of each platform. Read once and kept in memory, so a poll reads
 * nothing from the database (docs/decisions/0031).
 */
export interface ReleaseSnapshot {
  /** Published releases (paused ones included: the selection skips them), newest version first. */
  published: readonly ReleaseWithAssets[];
  minimums: Partial<Record<Platform, string>>;
  /** What was built from this snapshot (feed bodies), forgotten with it. */
  built: Map<string, unknown>;
}

/**
 * A change made by any process on the database (publish, rollout, pause, pull, minimum version)
 * makes this process forget the snapshot at once: here directly, elsewhere through the NOTIFY
 * that app/.server/http/public-content.ts follows. The age limit only bounds how long a lost
 * notice (a failed pg_notify) can go unnoticed, as the public pages' max-age does.
 */
const MAX_AGE_MS = 30_000;

interface Held {
  snapshot: ReleaseSnapshot;
  at: number;
  /** The public-content generation it was read under: an older one means a change since. */
  generation: number;
}

let held: Held | undefined;
let loading: { promise: Promise<ReleaseSnapshot>; generation: number } | undefined;

onPublicContentChange(() => {
  held = undefined;
  loading = undefined;
});

async function readSnapshot(database: Database): Promise<ReleaseSnapshot> {
  const [published, policies] = await Promise.all([
    listReleases(["published"], database),
    database.select().from(updatePolicies),
  ]);
  return {
    published,
    minimums: Object.fromEntries(policies.map((row) => [row.platform, row.minimumVersion])),
    built: new Map(),
  };
}

/** The snapshot of releases, read again only after a change or once it is 30 s old. */
export async function releaseSnapshot(database?: Database): Promise<ReleaseSnapshot> {
  const generation = publicContentGeneration();
  if (held && held.generation === generation && Date.now() - held.at < MAX_AGE_MS)
    return held.snapshot;
  // Polls arriving together share one read.
  if (loading?.generation === generation) return loading.promise;
  const promise = readSnapshot(database ?? defaultDb()).then(
    (snapshot) => {
      // A change committed while the read ran may be missing from it: used once, not kept.
      if (publicContentGeneration() === generation) held = { snapshot, at: Date.now(), generation };
      return snapshot;
    },
    (error: unknown) => {
      // The database is away: polls keep the last snapshot, unless a change made it wrong.
      if (held && held.generation === generation) return held.snapshot;
      throw error;
    },
  );
  loading = { promise, generation };
  void promise
    .finally(() => {
      if (loading?.promise === promise) loading = undefined;
    })
    .catch(() => {});
  return promise;
}

/** A channel's feed candidates from the snapshot: its published releases (beta takes stable too). */
export function candidatesOf(
  snapshot: ReleaseSnapshot,
  channel: ReleaseChannel,
): ReleaseWithAssets[] {
  const channels = channelsOf(channel);
  return snapshot.published.filter((release) => channels.includes(release.channel));
}

/** `build()` once per snapshot and key: what a feed body depends on beyond the snapshot. */
export function builtOnce<T>(snapshot: ReleaseSnapshot, key: string, build: () => T): T {
  if (snapshot.built.has(key)) return snapshot.built.get(key) as T;
  const value = build();
  snapshot.built.set(key, value);
  return value;
}
