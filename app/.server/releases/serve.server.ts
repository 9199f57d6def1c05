import { Readable } from "node:stream";
import { redirect } from "react-router";
import type { ReleaseAsset } from "../db/schema";
import { roleOfFile } from "./files";
import type { ReleaseWithAssets } from "./queries.server";
import { parseRange } from "./range";
import { countAssetDownload, countReleaseEvent } from "./counters.server";
import { releaseStorage } from "./storage/index.server";

/**
 * A release file as a response: a presigned redirect when the storage offers one (S3), else the
 * bytes with their length, a download name and byte ranges (resumable downloads). A download of
 * an installer that starts at byte 0 is counted once, per day, release, platform and arch.
 */
export async function serveReleaseFile(
  request: Request,
  release: ReleaseWithAssets,
  asset: ReleaseAsset,
): Promise<Response> {
  const head = request.method === "HEAD";
  const count = (start: number) => {
    if (head || start !== 0 || asset.kind !== "installer") return;
    countReleaseEvent({
      version: release.version,
      platform: asset.platform,
      arch: asset.arch,
      channel: release.channel,
      event: "download",
    });
    countAssetDownload(asset.id);
  };
  if (!asset.storageKey) {
    count(0);
    return redirect(asset.externalUrl ?? "/download", 302);
  }
  const contentType = roleOfFile(asset.fileName)?.contentType ?? "application/octet-stream";
  const storage = releaseStorage();
  const presigned = await storage.downloadUrl(asset.storageKey, asset.fileName, contentType);
  if (presigned) {
    count(0);
    return new Response(null, {
      status: 302,
      headers: { Location: presigned, "Cache-Control": "no-store" },
    });
  }

  const size = await storage.size(asset.storageKey);
  if (size === null) return new Response("The file is missing from storage.", { status: 404 });
  const range = parseRange(request.headers.get("range"), size);
  const headers = new Headers({
    "Content-Type": contentType,
    "Content-Disposition": `attachment; filename="${asset.fileName}"`,
    "Accept-Ranges": "bytes",
    // no-transform: proxies and our own compression must keep the bytes (and ranges) as they are.
    "Cache-Control": "public, max-age=300, no-transform",
    "X-Content-SHA256": asset.sha256,
    ETag: `"${asset.sha256}"`,
  });
  if (range.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const start = range.kind === "partial" ? range.start : 0;
  const end = range.kind === "partial" ? range.end : size - 1;
  headers.set("Content-Length", String(end - start + 1));
  if (range.kind === "partial") headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  const status = range.kind === "partial" ? 206 : 200;
  if (head) return new Response(null, { status, headers });
  count(start);
  if (size === 0) return new Response(null, { status, headers });
  const stream = await storage.read(asset.storageKey, { start, end });
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers });
}

/** The installer of a platform in a release (a universal build before arch-specific ones). */
export function installerFor(
  release: ReleaseWithAssets,
  platform: string,
): ReleaseAsset | undefined {
  const installers = release.assets.filter(
    (asset) => asset.platform === platform && asset.kind === "installer",
  );
  return installers.find((asset) => asset.arch === "universal") ?? installers[0];
}
