import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export interface LocalS3 {
  endpoint: string;
  /** The folder s3rver keeps the bucket in. */
  directory: string;
  /** The S3_* variables a site needs to reach it (its bucket variable is the test's own). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A local S3-compatible server (s3rver, from the npm registry) with one empty bucket. */
export async function startS3(bucket: string): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-s3-"));
  const s3 = new S3rver({
    port: 0,
    address: "127.0.0.1",
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    directory,
    env: {
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "1",
    },
    async stop() {
      await s3.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
