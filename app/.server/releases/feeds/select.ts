import type { Release, ReleaseAsset, ReleaseChannel } from "../../db/schema";
import { inRollout } from "../rollout";
import { compareVersionsDesc } from "../versions";

export type ReleaseWithAssets = Release & { assets: ReleaseAsset[] };

/** Which releases a channel's feeds may serve: beta clients also take stable releases. */
export function channelsOf(channel: ReleaseChannel): ReleaseChannel[] {
  return channel === "beta" ? ["stable", "beta"] : ["stable"];
}

/** Published, not paused, rolled out to someone: what a feed may offer at all. */
export function isOffered(release: Release): boolean {
  return release.status === "published" && !release.paused && release.rolloutPercent > 0;
}

export interface Selection {
  release: ReleaseWithAssets;
  /** Set when the client decides itself (electron-updater's stagingPercentage). */
  stagingPercentage?: number;
}

/**
 * The release a client is offered: the newest offered release with a file it can use, whose
 * rollout includes the client. Without a client id the decision is left to the client
 * (`clientDecides`, electron-updater) and the percentage travels with the release.
 */
export function selectRelease(
  releases: readonly ReleaseWithAssets[],
  options: {
    channel: ReleaseChannel;
    usable: (asset: ReleaseAsset) => boolean;
    clientId: string | null;
    clientDecides?: boolean;
  },
): Selection | null {
  const channels = channelsOf(options.channel);
  const candidates = releases
    .filter((release) => channels.includes(release.channel) && isOffered(release))
    .filter((release) => release.assets.some(options.usable))
    .sort((a, b) => compareVersionsDesc(a.version, b.version));
  for (const release of candidates) {
    if (release.rolloutPercent >= 100) return { release };
    if (options.clientId !== null) {
      if (inRollout(options.clientId, release.version, release.rolloutPercent)) return { release };
      continue;
    }
    if (options.clientDecides) return { release, stagingPercentage: release.rolloutPercent };
    // No id and no client-side decision: treat the client as outside a partial rollout.
  }
  return null;
}

/** Older offered releases of the channel below `version`, newest first (appcast history). */
export function olderReleases(
  releases: readonly ReleaseWithAssets[],
  channel: ReleaseChannel,
  version: string,
  usable: (asset: ReleaseAsset) => boolean,
  limit: number,
): ReleaseWithAssets[] {
  const channels = channelsOf(channel);
  return releases
    .filter(
      (release) =>
        channels.includes(release.channel) &&
        release.status === "published" &&
        release.assets.some(usable) &&
        compareVersionsDesc(release.version, version) > 0,
    )
    .sort((a, b) => compareVersionsDesc(a.version, b.version))
    .slice(0, limit);
}
