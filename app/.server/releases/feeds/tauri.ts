import { releaseFileUrl } from "./file-url";
import type { ReleaseAsset } from "../../db/schema";
import type { Platform } from "~/lib/platform";
import { archServes, tauriPlatformKeys, type Arch } from "../targets";
import type { ReleaseWithAssets } from "./select";

/**
 * Tauri v2's updater. A usable file has the minisign signature supplied at publish: the
 * `.app.tar.gz` on macOS; on Windows the `.msi`, or the NSIS `-setup.exe` when it was uploaded
 * with a `.sig`. Tauri validates the whole static JSON, so only complete entries are listed.
 */
export function tauriUsable(platform: Platform, arch?: string) {
  return (asset: ReleaseAsset): boolean => {
    if (asset.platform !== platform || !asset.signature || !asset.storageKey) return false;
    if (arch !== undefined && !archServes(asset.arch, arch)) return false;
    if (asset.kind === "update") return asset.updater === "tauri";
    return platform === "windows" && asset.kind === "installer";
  };
}

/** The `.msi` before the `-setup.exe`, arch-specific before universal. */
function preference(asset: ReleaseAsset): number {
  return (asset.kind === "update" ? 0 : 2) + (asset.arch === "universal" ? 1 : 0);
}

export function tauriFileFor(
  release: ReleaseWithAssets,
  platform: Platform,
  arch: string,
): ReleaseAsset | null {
  return (
    release.assets
      .filter(tauriUsable(platform, arch))
      .sort((a, b) => preference(a) - preference(b))[0] ?? null
  );
}

function installerName(asset: ReleaseAsset): string {
  if (asset.platform === "mac") return "app";
  return asset.fileName.toLowerCase().endsWith(".msi") ? "msi" : "nsis";
}

export function tauriDynamic(
  release: ReleaseWithAssets,
  asset: ReleaseAsset,
  siteUrl: string,
  notesText: string,
  critical: boolean,
) {
  return {
    version: release.version,
    notes: notesText,
    pub_date: release.publishedAt.toISOString(),
    url: releaseFileUrl(release.version, asset.fileName, siteUrl),
    signature: asset.signature,
    ...(critical ? { critical: true } : {}),
  };
}

export function tauriStatic(release: ReleaseWithAssets, siteUrl: string, notesText: string) {
  const platforms: Record<string, { url: string; signature: string }> = {};
  const files = release.assets
    .filter((asset) => tauriUsable(asset.platform)(asset))
    // Universal files first so an arch-specific file of the same key wins when written after.
    .sort((a, b) => Number(b.arch === "universal") - Number(a.arch === "universal"));
  for (const asset of files) {
    const entry = {
      url: releaseFileUrl(release.version, asset.fileName, siteUrl),
      signature: asset.signature ?? "",
    };
    for (const key of tauriPlatformKeys(asset.platform, asset.arch as Arch)) {
      // The installer-specific key Tauri looks up first, then the plain one (an .msi wins it).
      platforms[`${key}-${installerName(asset)}`] = entry;
      if (!platforms[key] || asset.kind === "update") platforms[key] = entry;
    }
  }
  return {
    version: release.version,
    notes: notesText,
    pub_date: release.publishedAt.toISOString(),
    platforms,
  };
}
