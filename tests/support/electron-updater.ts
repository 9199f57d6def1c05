/**
 * electron-updater's own differential downloader, driven from Node (issue 58): the package's
 * `GenericDifferentialDownloader` (the code an installed Electron app runs) with a `node:http`
 * executor in place of Electron's `net`, and blockmaps as electron-builder writes them (gzipped
 * JSON of block checksums and sizes; fixed-size blocks here, content-defined ones there: the
 * downloader only compares them).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import { gunzipSync, gzipSync } from "node:zlib";
import { CancellationToken, HttpExecutor } from "builder-util-runtime";
import type { BlockMap } from "builder-util-runtime/out/blockMapApi";
import { GenericDifferentialDownloader } from "electron-updater/out/differentialDownloader/GenericDifferentialDownloader";

/** A blockmap of `bytes` in blocks of `blockSize`, gzipped as electron-builder stores it. */
export function blockMapOf(bytes: Buffer, blockSize = 16 * 1024): Buffer {
  const checksums: string[] = [];
  const sizes: number[] = [];
  for (let offset = 0; offset < bytes.length; offset += blockSize) {
    const block = bytes.subarray(offset, offset + blockSize);
    checksums.push(createHash("sha256").update(block).digest("base64"));
    sizes.push(block.length);
  }
  const map: BlockMap = { version: "2", files: [{ name: "file", offset: 0, checksums, sizes }] };
  return gzipSync(JSON.stringify(map));
}

/** A blockmap as electron-updater reads one it downloaded. */
export const readBlockMap = (gzipped: Buffer): BlockMap =>
  JSON.parse(gunzipSync(gzipped).toString()) as BlockMap;

/**
 * Electron's `net` through `node:http`: a redirect is reported as the `redirect` event that
 * electron-updater's range requests follow themselves; every answer's body bytes are counted.
 */
class NodeHttpExecutor extends HttpExecutor<http.ClientRequest> {
  received = 0;
  /** The Range header of every request sent, in order. */
  readonly ranges: string[] = [];
  createRequest(
    options: http.RequestOptions,
    callback: (response: http.IncomingMessage) => void,
  ): http.ClientRequest {
    // electron-updater's options carry headers as an object (never the raw array form).
    const range = (options.headers as http.OutgoingHttpHeaders | undefined)?.range;
    if (typeof range === "string") this.ranges.push(range);
    const request = http.request(options, (response) => {
      const location = response.headers.location;
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        const base = `${options.protocol ?? "http:"}//${options.hostname}:${options.port}`;
        request.emit("redirect", status, options.method ?? "GET", new URL(location, base).href);
        return;
      }
      response.on("data", (chunk: Buffer) => (this.received += chunk.length));
      callback(response);
    });
    return request;
  }
}

/**
 * Rebuilds the new installer at `newFile` from `oldFile` and the two blockmaps, downloading the
 * changed blocks from `url` as an installed app does; what it fetched.
 */
export async function differentialDownload(options: {
  url: string;
  oldFile: string;
  newFile: string;
  oldBlockMap: BlockMap;
  newBlockMap: BlockMap;
  size: number;
  sha512: string;
}): Promise<{ received: number; ranges: string[] }> {
  const executor = new NodeHttpExecutor();
  const quiet = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };
  const downloader = new GenericDifferentialDownloader(
    { size: options.size, sha512: options.sha512 },
    executor,
    {
      newUrl: new URL(options.url),
      oldFile: options.oldFile,
      newFile: options.newFile,
      logger: quiet,
      requestHeaders: null,
      isUseMultipleRangeRequest: true,
      cancellationToken: new CancellationToken(),
    },
  );
  await downloader.download(options.oldBlockMap, options.newBlockMap);
  return { received: executor.received, ranges: executor.ranges };
}
