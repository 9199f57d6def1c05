/**
 * Off-machine copies of backups (issue 35, point 1): each backup written to BACKUP_DIR is also
 * copied to an S3-compatible bucket (BACKUP_S3_BUCKET, under BACKUP_S3_PREFIX), which keeps the
 * same backups by the same rule (the newest BACKUP_KEEP, none older than 30 days). An object
 * appears in the bucket only once its upload completed, so a copy cut short leaves nothing that
 * looks whole; its size is checked against the file's before the copy counts.
 */
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { env } from "../env";
import { type S3Config, s3ConfigFromEnv, s3Connection } from "../s3/client.server";
import { backupsToRemove } from "./create-backup.server";
import { isBackupFileName } from "./format";

export interface OffsiteTarget {
  bucket: string;
  /** Empty, or ending in "/". */
  prefix: string;
  connection: S3Config;
}

/** The bucket the environment names, or null when backups stay in BACKUP_DIR only. */
export function offsiteFromEnv(): OffsiteTarget | null {
  const config = env();
  if (!config.BACKUP_S3_BUCKET) return null;
  return {
    bucket: config.BACKUP_S3_BUCKET,
    prefix: config.BACKUP_S3_PREFIX,
    connection: s3ConfigFromEnv(),
  };
}

/** "s3://bucket/prefix/name": how the page and the log name a copy. */
export function offsiteUrl(target: Pick<OffsiteTarget, "bucket" | "prefix">, name = ""): string {
  return `s3://${target.bucket}/${target.prefix}${name}`;
}

/**
 * Copies the backup `file` (named `fileName`) to the bucket, then removes the bucket's backups
 * the retention rule no longer keeps; the names removed.
 */
export async function copyOffsite(
  target: OffsiteTarget,
  file: string,
  fileName: string,
  options: { keep: number; now?: number; signal?: AbortSignal },
): Promise<{ removed: string[] }> {
  const { sdk, client } = await s3Connection(target.connection)();
  const { size } = await fs.stat(file);
  const upload = new sdk.Upload({
    client,
    params: {
      Bucket: target.bucket,
      Key: target.prefix + fileName,
      Body: createReadStream(file),
      ContentType: "application/octet-stream",
    },
    partSize: 8 * 1024 * 1024,
    queueSize: 2,
    // A failed or interrupted upload is aborted: no part of it stays in the bucket.
    leavePartsOnError: false,
  });
  const abort = () => void upload.abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  try {
    await upload.done();
  } finally {
    options.signal?.removeEventListener("abort", abort);
  }
  const head = await client.send(
    new sdk.HeadObjectCommand({ Bucket: target.bucket, Key: target.prefix + fileName }),
  );
  if (head.ContentLength !== size)
    throw new Error(
      `the copy of ${fileName} in the bucket has ${head.ContentLength ?? "no"} bytes, the file ${size}`,
    );
  const names = await listOffsite(target);
  const removed = backupsToRemove(names, options.keep, fileName, options.now ?? Date.now());
  for (const name of removed)
    await client.send(
      new sdk.DeleteObjectCommand({ Bucket: target.bucket, Key: target.prefix + name }),
    );
  return { removed };
}

/** The backups in the bucket (names without the prefix), newest first. */
export async function listOffsite(target: OffsiteTarget): Promise<string[]> {
  const { sdk, client } = await s3Connection(target.connection)();
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new sdk.ListObjectsV2Command({
        Bucket: target.bucket,
        Prefix: target.prefix,
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) {
      const name = object.Key?.slice(target.prefix.length) ?? "";
      if (isBackupFileName(name)) names.push(name);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return names.sort().reverse();
}

/** Downloads the bucket's backup `name` to `file` (for `npm run restore -- s3://…`). */
export async function downloadOffsite(
  target: OffsiteTarget,
  name: string,
  file: string,
): Promise<void> {
  const { sdk, client } = await s3Connection(target.connection)();
  const result = await client.send(
    new sdk.GetObjectCommand({ Bucket: target.bucket, Key: target.prefix + name }),
  );
  if (!(result.Body instanceof Readable)) throw new Error(`no body for ${name}`);
  await pipeline(result.Body, createWriteStream(file, { flags: "wx", mode: 0o600 }));
}
