import { PassThrough, Readable } from "node:stream";
import { type S3Config as Connection, s3Connection } from "../../s3/client.server";
import { HashingCounter } from "./hashing";
import type { ReleaseStorage, StoredObject } from "./types";

export interface S3Config extends Connection {
  bucket: string;
}

/** How long a presigned download URL works: long enough to start, too short to share. */
export const PRESIGNED_SECONDS = 300;

/**
 * Release files in S3-compatible object storage. Uploads stream through a multipart upload
 * (lib-storage: parts of 8 MB, so memory stays flat for any file size); downloads are presigned
 * redirects, so the app server never streams installers.
 */
export function s3Storage(config: S3Config): ReleaseStorage {
  // The SDK is loaded with the first file (decision 0051).
  const connect = s3Connection(config);
  const Bucket = config.bucket;
  return {
    kind: "s3",
    async put(key, body, { maxBytes, contentType }): Promise<StoredObject> {
      const { sdk, client } = await connect();
      const counter = new HashingCounter(maxBytes);
      const passthrough = new PassThrough();
      body.on("error", (error) => counter.destroy(error));
      body.pipe(counter).pipe(passthrough);
      counter.on("error", (error) => passthrough.destroy(error));
      const upload = new sdk.Upload({
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
      const { sdk, client } = await connect();
      const result = await client.send(
        new sdk.GetObjectCommand({
          Bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!(result.Body instanceof Readable)) throw new Error(`no body for ${key}`);
      return result.Body;
    },
    async size(key) {
      const { sdk, client } = await connect();
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? null;
      } catch (error) {
        if ((error as { name?: string }).name === "NotFound") return null;
        throw error;
      }
    },
    async downloadUrl(key, fileName, contentType) {
      const { sdk, client } = await connect();
      return sdk.getSignedUrl(
        client,
        new sdk.GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentDisposition: `attachment; filename="${fileName}"`,
          ResponseContentType: contentType,
        }),
        { expiresIn: PRESIGNED_SECONDS },
      );
    },
    async remove(key) {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
