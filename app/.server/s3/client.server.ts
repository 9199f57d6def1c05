/**
 * The S3-compatible storage client the site's two buckets share: release files (S3_BUCKET) and
 * off-machine backups (BACKUP_S3_BUCKET), with one endpoint, region and credentials (the S3_*
 * variables). The AWS SDK is loaded on first use: it costs about 20 MB of memory, and a site on
 * local storage without off-machine backups never needs it (decision 0051).
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { env } from "../env";

export interface S3Config {
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export async function loadS3Sdk() {
  const [s3, storage, presigner] = await Promise.all([
    import("@aws-sdk/client-s3"),
    import("@aws-sdk/lib-storage"),
    import("@aws-sdk/s3-request-presigner"),
  ]);
  return { ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
}

export type S3Sdk = Awaited<ReturnType<typeof loadS3Sdk>>;

/** The SDK and a client for `config`, made on the first call of the function it returns. */
export function s3Connection(config: S3Config): () => Promise<{ sdk: S3Sdk; client: S3Client }> {
  let connected: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  return () =>
    (connected ??= loadS3Sdk().then((sdk) => ({
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
}

/** The endpoint, region and credentials from the environment (the S3_* variables). */
export function s3ConfigFromEnv(): S3Config {
  const config = env();
  return {
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}
