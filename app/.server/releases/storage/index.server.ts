import path from "node:path";
import { env } from "../../env";
import { localStorage, sweepAbandonedUploads } from "./local.server";
import { s3Storage } from "./s3.server";
import type { ReleaseStorage } from "./types";

export type { ReleaseStorage, StoredObject } from "./types";
export { UploadTooLargeError } from "./types";

let storage: ReleaseStorage | undefined;

/** The process's release storage: S3 when S3_BUCKET is set, else DATA_DIR/releases. */
export function releaseStorage(): ReleaseStorage {
  if (storage) return storage;
  const config = env();
  storage = config.S3_BUCKET
    ? s3Storage({
        bucket: config.S3_BUCKET,
        endpoint: config.S3_ENDPOINT,
        region: config.S3_REGION,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
      })
    : localStorage(localRoot());
  return storage;
}

function localRoot(): string {
  return path.join(env().DATA_DIR, "releases");
}

/**
 * At start-up: removes what uploads killed mid-way left on local disk. Incomplete multipart
 * uploads in S3 are for the bucket's lifecycle rule to abort (README, "Update feeds").
 */
export function sweepReleaseUploads(): Promise<number> {
  return env().S3_BUCKET ? Promise.resolve(0) : sweepAbandonedUploads(localRoot());
}

export function uploadLimitBytes(): number {
  return env().RELEASE_UPLOAD_MAX_MB * 1024 * 1024;
}
