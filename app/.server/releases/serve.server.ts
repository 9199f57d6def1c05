import { Readable } from "node:stream";
import { redirect } from "react-router";
import type { ReleaseAsset } from "../db/schema";
import { roleOfFile } from "./files";
import { sparkleFileFor } from "./feeds/sparkle";
import type { ReleaseWithAssets } from "./queries.server";
import { type ByteRange, parseRanges } from "./range";
import { countAssetDownload, countDelivery, countReleaseEvent } from "./counters.server";
import { releaseStorage } from "./storage/index.server";
import type { ReleaseStorage } from "./storage/types";
import { env } from "../env";
import { webStreamOf } from "../http/web-stream";
import { randomBytes } from "node:crypto";

/**
 * A release file as a response: a presigned redirect when the storage offers one (S3), else the
 * bytes with their length, a download name and byte ranges: one range (a resumed download) as
 * `206` with Content-Range, several (electron-updater's differential download) as `206
 * multipart/byteranges`, streamed part after part from disk or S3 (which serves one range per
 * request, so a request for several is never redirected there). `If-Range` with another ETag gets
 * the whole file. A download of an installer that starts at byte 0 is counted once, per day,
 * release, platform and arch.
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
  // How the file was delivered, with its bytes (issue 58, point 6): installers, updates and
  // deltas; a delta counts against the full update it stands in for.
  const delivered = (kind: "full" | "differential", served: number) => {
    if (head || asset.kind === "blockmap") return;
    countDelivery(
      {
        version: release.version,
        platform: asset.platform,
        kind: asset.kind === "delta" ? "delta" : kind,
      },
      { served, full: fullSizeFor(release, asset) },
    );
  };
  if (!asset.storageKey) {
    count(0);
    return redirect(asset.externalUrl ?? "/download", 302);
  }
  const etag = `"${asset.sha256}"`;
  // A Range that holds only for the version the client has (If-Range): another ETag (or a date,
  // which this server never gives) means the file changed, and the whole of it is the answer.
  const ifRange = request.headers.get("if-range");
  const rangeHeader = ifRange === null || ifRange === etag ? request.headers.get("range") : null;
  const contentType = roleOfFile(asset.fileName)?.contentType ?? "application/octet-stream";
  const storage = releaseStorage();
  // Asked for several ranges (whatever If-Range decides): never sent to S3, which would apply its
  // own reading of the header the client sends again after the redirect.
  const several = request.headers.get("range")?.includes(",") ?? false;
  const presigned = several
    ? null
    : await storage.downloadUrl(asset.storageKey, asset.fileName, contentType);
  if (presigned) {
    count(0);
    // Sent to S3 for the whole file (a request for one range is a download resumed there).
    if (!rangeHeader) delivered("full", asset.sizeBytes);
    return new Response(null, {
      status: 302,
      headers: { Location: presigned, "Cache-Control": "no-store" },
    });
  }

  const size = await storage.size(asset.storageKey);
  if (size === null) return new Response("The file is missing from storage.", { status: 404 });
  const range = parseRanges(rangeHeader, size, env().DOWNLOAD_MAX_RANGES);
  const headers = new Headers({
    "Content-Type": contentType,
    "Content-Disposition": `attachment; filename="${asset.fileName}"`,
    "Accept-Ranges": "bytes",
    // no-transform: proxies and our own compression must keep the bytes (and ranges) as they are.
    "Cache-Control": "public, max-age=300, no-transform",
    "X-Content-SHA256": asset.sha256,
    ETag: etag,
  });
  if (range.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  if (range.kind === "partial" && range.ranges.length > 1) {
    delivered(
      "differential",
      range.ranges.reduce((total, part) => total + part.end - part.start + 1, 0),
    );
    return multipartAnswer(storage, asset.storageKey, range.ranges, size, headers, head);
  }
  const only = range.kind === "partial" ? range.ranges[0] : undefined;
  const start = only?.start ?? 0;
  const end = only?.end ?? size - 1;
  headers.set("Content-Length", String(end - start + 1));
  if (only) headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  const status = only ? 206 : 200;
  if (head) return new Response(null, { status, headers });
  count(start);
  if (!only) delivered("full", size);
  if (size === 0) return new Response(null, { status, headers });
  const stream = await storage.read(asset.storageKey, { start, end });
  return new Response(webStreamOf(stream), { status, headers });
}

/**
 * `206 multipart/byteranges` (RFC 9110 §14.6): a part per range, in the order asked, each with
 * its Content-Type and Content-Range, the body starting with the first delimiter (as
 * electron-updater's parser expects) and its exact length known before the first byte. Parts are
 * read one after the other, so memory holds one chunk, whatever the file's size.
 */
function multipartAnswer(
  storage: ReleaseStorage,
  key: string,
  ranges: readonly ByteRange[],
  size: number,
  headers: Headers,
  head: boolean,
): Response {
  const contentType = headers.get("Content-Type") ?? "application/octet-stream";
  const boundary = randomBytes(16).toString("hex");
  const partHead = (range: ByteRange, first: boolean) =>
    Buffer.from(
      `${first ? "" : "\r\n"}--${boundary}\r\nContent-Type: ${contentType}\r\nContent-Range: bytes ${range.start}-${range.end}/${size}\r\n\r\n`,
    );
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = ranges.reduce(
    (total, range, index) =>
      total + partHead(range, index === 0).length + range.end - range.start + 1,
    closing.length,
  );
  headers.set("Content-Type", `multipart/byteranges; boundary=${boundary}`);
  headers.set("Content-Length", String(length));
  if (head) return new Response(null, { status: 206, headers });
  async function* parts() {
    for (const [index, range] of ranges.entries()) {
      yield partHead(range, index === 0);
      for await (const chunk of await storage.read(key, range)) yield chunk as Buffer;
    }
    yield closing;
  }
  return new Response(webStreamOf(Readable.from(parts())), {
    status: 206,
    headers,
  });
}

/**
 * The bytes a whole download of this file's update costs: its own size, or for a delta the full
 * update its updater would fetch instead (Sparkle's archive; Velopack's full package).
 */
function fullSizeFor(release: ReleaseWithAssets, asset: ReleaseAsset): number {
  if (asset.kind !== "delta") return asset.sizeBytes;
  const full =
    asset.updater === "sparkle"
      ? sparkleFileFor(release)
      : release.assets.find(
          (candidate) =>
            candidate.kind === "update" &&
            candidate.updater === asset.updater &&
            candidate.platform === asset.platform &&
            candidate.arch === asset.arch,
        );
  return full?.sizeBytes ?? asset.sizeBytes;
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
