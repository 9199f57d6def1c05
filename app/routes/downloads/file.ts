import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { data, redirect } from "react-router";
import { isPlatform } from "~/lib/platform";
import { parseRange } from "~/.server/downloads/range";
import { assetPath, countDownload, findAsset } from "~/.server/downloads/releases.server";
import { versionSchema } from "~/.server/downloads/releases.server";
import type { Route } from "./+types/file";

/**
 * GET /download/:platform[/:version]: the installer, streamed with its length, a download name
 * and byte ranges (resumable downloads); hosted assets redirect. Each download that starts at
 * byte 0 is counted once.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!isPlatform(params.platform))
    throw data("Unknown platform: use mac or windows.", { status: 404 });
  if (params.version !== undefined && !versionSchema.safeParse(params.version).success) {
    throw data("Unknown version.", { status: 404 });
  }
  const found = await findAsset(params.platform, params.version);
  if (!found) throw data("No release for this platform yet.", { status: 404 });
  const { asset } = found;
  const head = request.method === "HEAD";

  if (!asset.storageKey && asset.externalUrl) {
    if (!head) await countDownload(asset.id);
    return redirect(asset.externalUrl, 302);
  }

  const file = assetPath(asset);
  const size = (await fs.stat(file)).size;
  const range = parseRange(request.headers.get("range"), size);
  const headers = new Headers({
    "Content-Type": "application/octet-stream",
    "Content-Disposition": `attachment; filename="${asset.fileName}"`,
    "Accept-Ranges": "bytes",
    // no-transform: proxies and our own compression must keep the bytes (and ranges) as they are.
    "Cache-Control": "public, max-age=300, no-transform",
    "X-Content-SHA256": asset.sha256,
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
  if (start === 0) await countDownload(asset.id);
  const stream = Readable.toWeb(
    createReadStream(file, { start, end }),
  ) as ReadableStream<Uint8Array>;
  return new Response(stream, { status, headers });
}
