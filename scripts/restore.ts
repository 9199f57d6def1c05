/**
 * npm run restore -- <backup file | s3://bucket/prefix/file> [--identity <age private key file>] [--check]
 *
 * An s3:// address is a copy BACKUP_S3_BUCKET keeps: it is downloaded first (with the S3_*
 * endpoint and credentials) into a temporary folder, removed afterwards.
 *
 * --check reads the whole file (decrypting it), checks its signature, every record, each file's
 * checksum and the file's own counts, and that this version can restore it; it writes nothing,
 * and says why a file is refused.
 *
 * A backup is signed (decision 0057) with BACKUP_SIGNING_SECRET, else BETTER_AUTH_SECRET, else
 * DATA_DIR/backup-signing-secret: one of them, as the site that took it had it, must be here.
 *
 * Restores a backup (npm run backup, /admin/backups, the schedule) into this environment's empty
 * DATA_DIR, or its empty PostgreSQL database when DATABASE_URL is set; release files go to the
 * configured storage. Refuses a target that holds data. Start the site afterwards as usual.
 * Exit codes: 0 restored, 1 failed or refused (nothing is left half-restored), 2 bad arguments.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { downloadOffsite } from "~/.server/backup/offsite.server";
import { isBackupFileName } from "~/.server/backup/format";
import { s3ConfigFromEnv } from "~/.server/s3/client.server";
import { restoreBackup, verifyBackup } from "~/.server/backup/restore-backup.server";
import { signingKeysForRestore } from "~/.server/backup/signing.server";
import { env } from "~/.server/env";
import { releaseStorage } from "~/.server/releases/storage/index.server";
import { countOf } from "~/lib/format";
import { runMain } from "./lib/run-main";

const USAGE =
  "usage: npm run restore -- <backup file | s3://bucket/prefix/file> [--identity <age private key file>] [--check]";

async function main(): Promise<number> {
  let parsed: { values: { identity?: string; check?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: { identity: { type: "string" }, check: { type: "boolean" } },
      allowPositionals: true,
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [source, ...extra] = parsed.positionals;
  if (!source || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const remote = /^s3:\/\/([^/]+)\/(.*)$/.exec(source);
  if (!remote) return restoreFrom(source, parsed.values);
  const bucket = remote[1]!;
  const key = remote[2]!;
  const name = path.posix.basename(key);
  if (!isBackupFileName(name)) {
    console.error(`error: ${source} does not name a backup (pinout-<time>.backup.gz[.age])`);
    return 2;
  }
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "pinout-restore-"));
  try {
    const file = path.join(folder, name);
    const prefix = key.slice(0, key.length - name.length);
    await downloadOffsite({ bucket, prefix, connection: s3ConfigFromEnv() }, name, file);
    console.log(`downloaded ${source}`);
    return await restoreFrom(file, parsed.values);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

async function restoreFrom(
  file: string,
  values: { identity?: string; check?: boolean },
): Promise<number> {
  const identity = values.identity
    ? (await fs.readFile(values.identity, "utf8"))
        .split("\n")
        .map((line) => line.trim())
        .find((line) => line.startsWith("AGE-SECRET-KEY-"))
    : undefined;
  if (values.identity && !identity) {
    console.error(`error: ${values.identity} holds no age private key (AGE-SECRET-KEY-1…)`);
    return 2;
  }
  const config = env();
  const signingKeys = signingKeysForRestore(config);
  if (values.check) {
    let verified;
    try {
      verified = await verifyBackup(file, { identity, signingKeys });
    } catch (error) {
      console.error(
        `${file} is refused: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 1;
    }
    console.log(
      `${file} is whole and signed (${verified.header.signing.source}): the backup of ${verified.header.createdAt}, ${countOf(verified.rows, "row")} in ${countOf(Object.keys(verified.end.tables).length, "table")}, ${countOf(verified.end.files, "file")}`,
    );
    return 0;
  }
  const summary = await restoreBackup({
    file,
    identity,
    signingKeys,
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    releases: releaseStorage(),
  });
  console.log(
    `restored the backup of ${summary.header.createdAt}: ${countOf(summary.rows, "row")} in ${countOf(summary.tables, "table")}, ${countOf(summary.files, "file")}`,
  );
  if (summary.header.releaseFiles === "s3")
    console.log(
      "release files were in S3 when it was taken: its bucket (with versioning) holds them",
    );
  if (summary.missingFiles.length > 0)
    console.warn(
      `warning: release files that were already missing: ${summary.missingFiles.join(", ")}`,
    );
  return 0;
}

runMain(main);
