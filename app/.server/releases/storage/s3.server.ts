import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { PassThrough, Readable } from "node:stream";
import { HashingCounter } from "./hashing";
import type { ReleaseStorage, StoredObject } from "./types";

export interface S3Config {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** How long a presigned download URL works: long enough to start, too short to share. */
export const PRESIGNED_SECONDS = 300;

/**
 * Release files in S3-compatible object storage. Uploads stream through a multipart upload
 * (lib-storage: parts of 8 MB, so memory stays flat for any file size); downloads are presigned
 * redirects, so the app server never streams installers.
 */
export function s3Storage(config: S3Config): ReleaseStorage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
  });
  const Bucket = config.bucket;
  return {
    kind: "s3",
    async put(key, body, { maxBytes, contentType }): Promise<StoredObject> {
      const counter = new HashingCounter(maxBytes);
      const passthrough = new PassThrough();
      body.on("error", (error) => counter.destroy(error));
      body.pipe(counter).pipe(passthrough);
      counter.on("error", (error) => passthrough.destroy(error));
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: passthrough, ContentType: contentType },
        partSize: 8 * 1024 * 1024,
        queueSize: 2,
        // A failed or interrupted upload is aborted, so no partial object appears under the key.
        leavePartsOnError: false,
      });
      await upload.done();
      return counter.result();
    },
    async read(key, range) {
      const result = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!(result.Body instanceof Readable)) throw new Error(`no body for ${key}`);
      return result.Body;
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? null;
      } catch (error) {
        if ((error as { name?: string }).name === "NotFound") return null;
        throw error;
      }
    },
    async downloadUrl(key, fileName, contentType) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentDisposition: `attachment; filename="${fileName}"`,
          ResponseContentType: contentType,
        }),
        { expiresIn: PRESIGNED_SECONDS },
      );
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
