import { latestRelease } from "~/.server/downloads/releases.server";
import { env } from "~/.server/env";

/** GET /api/releases/latest: the latest stable release, for update checks and scripts. */
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
      assets: release.assets.map((asset) => ({
        platform: asset.platform,
        arch: asset.arch,
        fileName: asset.fileName,
        size: asset.sizeBytes,
        sha256: asset.sha256,
        url: `${siteUrl}/download/${asset.platform}/${release.version}`,
      })),
    },
    { headers: { "Cache-Control": "public, max-age=60" } },
  );
}
