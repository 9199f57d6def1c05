import type { ReleaseWithAssets } from "./queries.server";

/** How a release reads in the admin area: one word for where it stands. */
export function releaseState(release: ReleaseWithAssets): string {
  if (release.status === "draft") return "Draft";
  if (release.status === "pulled") return "Pulled";
  if (release.paused) return "Paused";
  if (release.rolloutPercent < 100) return `Rolling out (${release.rolloutPercent}%)`;
  return "Live";
}
