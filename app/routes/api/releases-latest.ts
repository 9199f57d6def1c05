import { minimumVersions } from "~/.server/releases/policy.server";
import { latestRelease } from "~/.server/releases/queries.server";
import { env } from "~/.server/env";

/**
 * GET /api/releases/latest: the latest stable release with every file (hashes, sizes, URLs) and
 * the minimum supported version per platform, for scripts and simple update checks.
 */
export async function loader() {
  const release = await latestRelease("stable");
  if (!release) {
    return Response.json(
      { error: "no stable release published" },
      { status: 404, headers: { "Cache-Control": "no-store" } },
    );
  }
  const siteUrl = env().SITE_URL;
  return Response.json(
    {
      version: release.version,
      channel: release.channel,
      publishedAt: release.publishedAt.toISOString(),
      notes: release.notes,
      critical: release.critical,
      minimumVersion: await minimumVersions(),
      assets: release.assets.map((asset) => ({
        platform: asset.platform,
        arch: asset.arch,
        kind: asset.kind,
        fileName: asset.fileName,
        size: asset.sizeBytes,
        sha256: asset.sha256,
        sha512: asset.sha512,
        url:
          asset.kind === "installer"
            ? `${siteUrl}/download/${asset.platform}/${release.version}`
            : `${siteUrl}/releases/${encodeURIComponent(release.version)}/${encodeURIComponent(asset.fileName)}`,
      })),
    },
    { headers: { "Cache-Control": "public, max-age=60" } },
  );
}
