import type { ReleaseAsset } from "../db/schema";
import { electronUsable } from "./feeds/electron";
import type { ReleaseWithAssets } from "./feeds/select";
import { sparkleDelta, sparkleFileFor } from "./feeds/sparkle";
import { tauriUsable } from "./feeds/tauri";
import { velopackUsable } from "./feeds/velopack";

/**
 * What an app of each updater downloads to reach this release, from the files uploaded, in the
 * operator's words (issue 58, point 4): the release page says it before and after publishing, so
 * a missing blockmap or delta is seen while it can still be uploaded.
 */
export interface UpdatePath {
  updater: string;
  /** The whole download, or null when this updater gets nothing from this release. */
  full: { fileName: string; size: number } | null;
  /** What is smaller than the whole, for apps on a given version. */
  smaller: { from: string; fileName: string; size: number }[];
  note: string;
}

function whole(asset: ReleaseAsset | undefined) {
  return asset ? { fileName: asset.fileName, size: asset.sizeBytes } : null;
}

export function updatePathsOf(release: ReleaseWithAssets): UpdatePath[] {
  const { assets } = release;
  const paths: UpdatePath[] = [];

  const sparkle = sparkleFileFor(release);
  paths.push({
    updater: "Sparkle (macOS)",
    full: whole(sparkle ?? undefined),
    smaller: assets.filter(sparkleDelta).map((delta) => ({
      from: delta.fromVersion ?? "",
      fileName: delta.fileName,
      size: delta.sizeBytes,
    })),
    note: sparkle
      ? "Apps on a version with a delta download the delta; every other app the whole archive."
      : "Nothing: upload a signed .zip or .dmg for Mac.",
  });

  const windows = assets.find(electronUsable("windows"));
  const blockmap = windows
    ? assets.find((asset) => asset.fileName === `${windows.fileName}.blockmap`)
    : undefined;
  paths.push({
    updater: "electron-updater (Windows)",
    full: whole(windows),
    smaller: [],
    note: !windows
      ? "Nothing: upload an x64 or universal .exe installer."
      : blockmap
        ? "Only the changed blocks, where the version an app runs has its blockmap on this site; otherwise the whole installer."
        : "The whole installer: upload its .exe.blockmap for differential downloads.",
  });

  const mac = assets.filter(electronUsable("mac"));
  const macUpdate = mac.find((asset) => asset.kind === "update") ?? mac[0];
  paths.push({
    updater: "electron-updater (macOS)",
    full: whole(macUpdate),
    smaller: [],
    note: macUpdate
      ? "The whole archive (Squirrel.Mac has no differential download)."
      : "Nothing: upload the .zip and .dmg.",
  });

  for (const platform of ["mac", "windows"] as const) {
    const tauri = assets.find(tauriUsable(platform));
    paths.push({
      updater: `Tauri (${platform === "mac" ? "macOS" : "Windows"})`,
      full: whole(tauri),
      smaller: [],
      note: tauri ? "The whole bundle (Tauri has no delta updates)." : "Nothing from this release.",
    });
  }

  for (const platform of ["windows", "mac"] as const) {
    const packages = assets.filter(velopackUsable(platform, null));
    const full = packages.find((asset) => asset.kind === "update");
    paths.push({
      updater: `Velopack (${platform === "mac" ? "macOS" : "Windows"})`,
      full: whole(full),
      smaller: packages
        .filter((asset) => asset.kind === "delta")
        .map((delta) => ({
          from: "the release before",
          fileName: delta.fileName,
          size: delta.sizeBytes,
        })),
      note: full
        ? "Apps a few releases behind apply the chain of deltas (at most 10); others the full package."
        : "Nothing from this release.",
    });
  }
  return paths;
}
