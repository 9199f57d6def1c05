import type { S3Client } from "@aws-sdk/client-s3";
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
 * The AWS SDK, loaded on first use: it costs about 20 MB of memory, and a site on local storage
 * (the default) never needs it (decision 0051).
 */
async function loadSdk() {
  const [s3, storage, presigner] = await Promise.all([
    import("@aws-sdk/client-s3"),
    import("@aws-sdk/lib-storage"),
    import("@aws-sdk/s3-request-presigner"),
  ]);
  return { ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
}

/**
 * Release files in S3-compatible object storage. Uploads stream through a multipart upload
 * (lib-storage: parts of 8 MB, so memory stays flat for any file size); downloads are presigned
 * redirects, so the app server never streams installers.
 */
export function s3Storage(config: S3Config): ReleaseStorage {
  let connected:
    Promise<{ sdk: Awaited<ReturnType<typeof loadSdk>>; client: S3Client }> | undefined;
  const connect = () =>
    (connected ??= loadSdk().then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials:
          config.accessKeyId && config.secretAccessKey
            ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
            : undefined,
      }),
    })));
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
