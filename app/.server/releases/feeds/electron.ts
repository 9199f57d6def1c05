import { stringify } from "yaml";
import type { ReleaseAsset } from "../../db/schema";
import { archServes } from "../targets";
import { releaseFileUrl } from "./file-url";
import type { Selection } from "./select";

/**
 * electron-updater's generic-provider feed (electron-builder's UpdateInfo): `latest.yml` for
 * Windows (the NSIS installer is also the update; its `.blockmap` sits beside it at
 * `<url>.blockmap`) and `latest-mac.yml` (Squirrel.Mac installs the `.zip`; the `.dmg` is listed
 * too, as electron-builder does). `sha512` is base64. URLs are root-relative: electron-updater
 * resolves them against the feed URL.
 */
export function electronUsable(platform: "mac" | "windows") {
  return (asset: ReleaseAsset): boolean => {
    if (asset.platform !== platform || !asset.storageKey || !asset.sha512) return false;
    if (platform === "windows") return asset.kind === "installer" && archServes(asset.arch, "x64");
    return (asset.kind === "update" && asset.updater === "electron") || asset.kind === "installer";
  };
}

export function electronFeed(
  selection: Selection,
  platform: "mac" | "windows",
  notesText: string,
): string {
  const { release } = selection;
  const usable = electronUsable(platform);
  const files = release.assets
    .filter(usable)
    // The update archive first: electron-updater (and the legacy `path`) take the first match.
    .sort((a, b) => Number(b.kind === "update") - Number(a.kind === "update"));
  const first = files[0];
  if (!first) throw new Error(`release ${release.version} has no ${platform} update file`);
  const feed: Record<string, unknown> = {
    version: release.version,
    files: files.map((asset) => ({
      url: releaseFileUrl(release.version, asset.fileName),
      sha512: asset.sha512,
      size: asset.sizeBytes,
    })),
    path: releaseFileUrl(release.version, first.fileName),
    sha512: first.sha512,
    releaseDate: release.publishedAt.toISOString(),
  };
  if (notesText) feed.releaseNotes = notesText;
  if (release.minimumSystemVersion) feed.minimumSystemVersion = release.minimumSystemVersion;
  if (selection.stagingPercentage !== undefined)
    feed.stagingPercentage = selection.stagingPercentage;
  return stringify(feed, { lineWidth: 0 });
}
