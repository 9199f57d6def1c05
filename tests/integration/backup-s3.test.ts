/**
 * Backups copied off the machine (issue 35, point 1): with BACKUP_S3_BUCKET each backup written
 * to BACKUP_DIR is also copied to an S3-compatible bucket (a local s3rver), which keeps the same
 * backups by the same rule; a copy that fails fails the run and alerts; `npm run restore` takes
 * an s3:// address. One engine: the copy is of the file, whatever database it came from (the
 * whole-site restore on both engines is tests/integration/backup.test.ts).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBackupFileName } from "~/.server/backup/format";
import { authPost, postForm, signUpVerified } from "../support/auth";
import { pageText } from "../support/pages";
import { runScript } from "../support/cli";
import { type LocalS3, startS3 } from "../support/s3";
import { type RunningTestServer, startServer, tempDataDir } from "../support/server";

const BUCKET = "pinout-backups";
const PREFIX = "site/backups/";
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("backups copied to an S3-compatible bucket", () => {
  const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-backups-"));
  let s3: LocalS3 | undefined;
  let endpoint = "";
  let server: RunningTestServer;
  let boss = "";
  const s3Env = () => s3!.env;
  /** The bucket's backups, read with the AWS SDK itself (names without the prefix). */
  const client = () =>
    new S3Client({
      region: "us-east-1",
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
  const inBucket = async () =>
    (
      (await client().send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: PREFIX })))
        .Contents ?? []
    )
      .map((object) => object.Key!.slice(PREFIX.length))
      .sort();
  const objectBytes = async (name: string) =>
    (
      await client().send(new GetObjectCommand({ Bucket: BUCKET, Key: PREFIX + name }))
    ).Body!.transformToByteArray();
  const backUpNow = async () => {
    await postForm(server, "/admin/backups", boss, { intent: "backup-now" });
    await server.jobsSettled();
  };

  beforeAll(async () => {
    s3 = await startS3(BUCKET);
    endpoint = s3.endpoint;
    server = await startServer({
      env: {
        ADMIN_EMAILS: "boss@example.com",
        BACKUP_DIR: backupDir,
        BACKUP_KEEP: "2",
        BACKUP_S3_BUCKET: BUCKET,
        BACKUP_S3_PREFIX: PREFIX,
        ...s3Env(),
      },
    });
    boss = await signUpVerified(server, {
      name: "Boss",
      email: "boss@example.com",
      password: "backup-s3-password-1",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
    fs.rmSync(backupDir, { recursive: true, force: true });
  });

  it("copies each backup to the bucket, byte for byte, and the bucket keeps what the folder keeps", async () => {
    expect(await pageText(server, "/admin/backups", boss)).toContain(
      `Off this machine each backup is also copied to s3://${BUCKET}/${PREFIX}, which keeps the same ones`,
    );
    for (let taken = 1; taken <= 3; taken++) {
      await backUpNow();
      const local = fs.readdirSync(backupDir).filter(isBackupFileName).sort();
      // Both keep the newest two (BACKUP_KEEP), and the bucket holds nothing else.
      expect(local).toHaveLength(Math.min(taken, 2));
      expect(await inBucket()).toEqual(local);
    }
    const newest = (await inBucket()).at(-1)!;
    expect(sha256(await objectBytes(newest))).toBe(
      sha256(fs.readFileSync(path.join(backupDir, newest))),
    );
    expect(await pageText(server, "/admin/backups", boss)).toMatch(
      /The last backup succeeded on .* \(under an hour ago\)\./,
    );
  });

  it("a copy that fails fails the run, says why, and the next one copies again", async () => {
    // The bucket is gone for a moment (deleted, or its credentials revoked): the file is written
    // to the folder, not copied.
    const bucketFolder = path.join(s3!.directory, BUCKET);
    fs.renameSync(bucketFolder, `${bucketFolder}-aside`);
    try {
      await backUpNow();
    } finally {
      fs.renameSync(`${bucketFolder}-aside`, bucketFolder);
    }
    const page = await pageText(server, "/admin/backups", boss);
    expect(page).toMatch(/The last backup succeeded on .*; the attempt after it failed\./);
    expect(page).toMatch(
      new RegExp(
        `Back up now Failed .*pinout-\\d{8}T\\d{6}\\.\\d{3}Z\\.backup\\.gz was written to .* but not copied to s3://${BUCKET}/${PREFIX}`,
      ),
    );
    await backUpNow();
    expect(await pageText(server, "/admin/backups", boss)).toMatch(
      /The last backup succeeded on .* \(under an hour ago\)\./,
    );
    // The newest is in both; the one that was not copied stays in the folder only (it is still a
    // good backup), so each keeps its own newest two.
    const local = fs.readdirSync(backupDir).filter(isBackupFileName).sort();
    const copied = await inBucket();
    expect(copied).toHaveLength(2);
    expect(copied.at(-1)).toBe(local.at(-1));
  });

  it("restores from the bucket with npm run restore -- s3://…", async () => {
    const newest = (await inBucket()).at(-1)!;
    // The secret the site signed its backups with (decision 0057): the test servers' own.
    const target = {
      DATA_DIR: tempDataDir(),
      BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
      ...s3Env(),
    };
    const restore = await runScript(
      "scripts/restore.ts",
      [`s3://${BUCKET}/${PREFIX}${newest}`],
      target,
    );
    expect(restore.output).toContain(`downloaded s3://${BUCKET}/${PREFIX}${newest}`);
    expect(restore.output).toMatch(/restored the backup of .*: [\d,]+ rows in \d+ tables/);
    expect(restore.code).toBe(0);
    const restored = await startServer({
      dataDir: target.DATA_DIR,
      env: { ADMIN_EMAILS: "boss@example.com" },
    });
    try {
      const signIn = await authPost(restored, "/sign-in/email", {
        email: "boss@example.com",
        password: "backup-s3-password-1",
      });
      expect(signIn.status).toBe(200);
    } finally {
      await restored.stop();
    }
    // A name that is not a backup is refused before anything is downloaded.
    const refused = await runScript("scripts/restore.ts", [`s3://${BUCKET}/${PREFIX}notes.txt`], {
      DATA_DIR: tempDataDir(),
      ...s3Env(),
    });
    expect(refused.code).toBe(2);
    expect(refused.output).toContain("does not name a backup");
  });
});
