import type { Platform } from "~/lib/platform";
import type { ReleaseAsset, ReleaseChannel } from "../../db/schema";
import { archServes } from "../targets";
import type { ReleaseWithAssets } from "./select";

/**
 * Velopack's HTTP feed: `{base}/releases.{channel}.json`, a `VelopackAssetFeed` listing every
 * package the client may use (full and delta), from which it takes the newest full release and
 * the chain of deltas from its own version (velopack's manager.rs). Channels here are the OS and
 * the site's channel: `win`, `osx` (Velopack's defaults) and `win-beta`, `osx-beta`.
 */
const OS_OF: Record<string, Platform> = { win: "windows", osx: "mac" };

export interface VelopackChannel {
  platform: Platform;
  channel: ReleaseChannel;
}

/** The channel a feed file name asks for (`releases.win-beta.json`), or null. */
export function velopackChannelOf(fileName: string): VelopackChannel | null {
  const match = /^releases\.([a-z]+)(-beta)?\.json$/i.exec(fileName);
  const os = match?.[1]?.toLowerCase() ?? "";
  if (!match || !Object.hasOwn(OS_OF, os)) return null;
  const platform = OS_OF[os];
  return platform ? { platform, channel: match[2] ? "beta" : "stable" } : null;
}

/** Velopack's arch names (its RuntimeCpu), as the C# client sends them in `?arch=`. */
const ARCH_OF: Record<string, string> = { x64: "x64", arm64: "arm64", x86: "ia32" };

export function velopackArchOf(value: string | null): string | null {
  const key = value?.toLowerCase() ?? "";
  return Object.hasOwn(ARCH_OF, key) ? (ARCH_OF[key] ?? null) : null;
}

/** A package a client of this platform (and arch, when it said) can use. */
export function velopackUsable(platform: Platform, arch: string | null) {
  return (asset: ReleaseAsset): boolean =>
    asset.updater === "velopack" &&
    asset.platform === platform &&
    asset.storageKey !== null &&
    asset.sha1 !== null &&
    (arch === null || archServes(asset.arch, arch));
}

/** Only releases with a full package are targets; their deltas ride along. */
export function velopackFullUsable(platform: Platform, arch: string | null) {
  const usable = velopackUsable(platform, arch);
  return (asset: ReleaseAsset): boolean => usable(asset) && asset.kind === "update";
}

/** The feed's fields, named and typed as Velopack's `VelopackAsset` (serde, exact names). */
export interface VelopackAsset {
  PackageId: string;
  Version: string;
  Type: "Full" | "Delta";
  FileName: string;
  SHA1: string;
  SHA256: string;
  Size: number;
  NotesMarkdown: string;
  NotesHtml: string;
}

/**
 * The feed: each release's packages, newest first. File names are bare: the client downloads
 * them from beside the feed (`{base}/{FileName}`) and stores them under that name, so a URL
 * there would break its package folder. Hashes in capitals, as `vpk` writes them.
 */
export function velopackFeed(
  releases: readonly { release: ReleaseWithAssets; notesHtml: string }[],
  usable: (asset: ReleaseAsset) => boolean,
): { Assets: VelopackAsset[] } {
  return {
    Assets: releases.flatMap(({ release, notesHtml }) =>
      release.assets
        .filter(usable)
        .sort((a, b) => Number(a.kind === "delta") - Number(b.kind === "delta"))
        .map((asset) => ({
          PackageId: asset.packageId ?? "",
          Version: release.version,
          Type: asset.kind === "delta" ? ("Delta" as const) : ("Full" as const),
          FileName: asset.fileName,
          SHA1: (asset.sha1 ?? "").toUpperCase(),
          SHA256: asset.sha256.toUpperCase(),
          Size: asset.sizeBytes,
          NotesMarkdown: release.notes,
          NotesHtml: notesHtml,
        })),
    ),
  };
}
