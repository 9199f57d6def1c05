import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { HashingCounter } from "./hashing";
import type { ReleaseStorage, StoredObject } from "./types";

/** Release files on local disk (DATA_DIR/releases), written to a temporary name and renamed. */
export function localStorage(root: string): ReleaseStorage {
  const resolve = (key: string): string => {
    const file = path.resolve(root, key);
    if (!file.startsWith(path.resolve(root) + path.sep))
      throw new Error("storage key leaves the releases folder");
    return file;
  };
  return {
    kind: "local",
    async put(key, body: Readable, { maxBytes }): Promise<StoredObject> {
      const target = resolve(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.partial`;
      const counter = new HashingCounter(maxBytes);
      try {
        await pipeline(body, counter, createWriteStream(partial, { flags: "wx" }));
        await fs.rename(partial, target);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
      return counter.result();
    },
    async read(key, range) {
      const file = resolve(key);
      await fs.access(file);
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async size(key) {
      const stat = await fs.stat(resolve(key)).catch(() => null);
      return stat?.isFile() ? stat.size : null;
    },
    async downloadUrl() {
      return null;
    },
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
  };
}

/** A `.partial` file not written to for this long is an upload that will never finish. */
export const ABANDONED_UPLOAD_MS = 60 * 60_000;

/**
 * Removes the temporary files of uploads that will never finish: a process killed mid-upload
 * (`kill -9`, a power cut) leaves its `.partial` file, which nothing else would ever remove (issue
 * 32, point 8). Only files untouched for `olderThanMs`: workers of one machine share the folder,
 * and another one's upload in progress writes to its file all the time. Returns how many it removed.
 */
export async function sweepAbandonedUploads(
  root: string,
  olderThanMs: number = ABANDONED_UPLOAD_MS,
  now: number = Date.now(),
): Promise<number> {
  const entries = await fs.readdir(root, { recursive: true }).catch(() => [] as string[]);
  let removed = 0;
  for (const entry of entries) {
    if (!entry.endsWith(".partial")) continue;
    const file = path.join(root, entry);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile() || now - stat.mtimeMs < olderThanMs) continue;
    await fs.rm(file, { force: true });
    removed += 1;
  }
  return removed;
}
