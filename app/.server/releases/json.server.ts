import type { ReleaseAsset } from "../db/schema";
import type { ReleaseWithAssets } from "./queries.server";

/** The admin API's view of a file: no storage keys. */
export function assetJson(asset: ReleaseAsset) {
  return {
    fileName: asset.fileName,
    platform: asset.platform,
    arch: asset.arch,
    kind: asset.kind,
    updater: asset.updater,
    fromVersion: asset.fromVersion,
    packageId: asset.packageId,
    size: asset.sizeBytes,
    sha256: asset.sha256,
    sha512: asset.sha512,
    sha1: asset.sha1,
    signed: { tauri: asset.signature !== null, sparkle: asset.edSignature !== null },
  };
}

export function releaseJson(release: ReleaseWithAssets) {
  return {
    id: release.id,
    version: release.version,
    channel: release.channel,
    status: release.status,
    rolloutPercent: release.rolloutPercent,
    paused: release.paused,
    critical: release.critical,
    minimumSystemVersion: release.minimumSystemVersion,
    notes: release.notes,
    notesTranslations: release.notesTranslations,
    publishedAt: release.status === "draft" ? null : release.publishedAt.toISOString(),
    files: release.assets.map(assetJson),
  };
}
