/**
 * Takes one backup into a folder (docs/decisions/0049): written under a hidden `.partial` name,
 * flushed to disk, then renamed, so a backup cut short (`kill -9`, a full disk) never leaves a
 * file that looks complete; then the folder keeps the newest `keep` backups.
 */
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { createGzip } from "node:zlib";
import type { DatabaseHandle } from "../db/client";
import type { ReleaseStorage } from "../releases/storage/index.server";
import { writeSnapshot } from "./database.server";
import { type BackupSigningKey, LineSigner } from "./signing.server";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  backupFileName,
  backupTime,
  DATA_DIR_FILES,
  FILE_PART_BYTES,
  isBackupFileName,
  isPartialName,
  partialName,
} from "./format";

export interface BackupOptions {
  handle: DatabaseHandle;
  dataDir: string;
  releases: ReleaseStorage;
  /** The folder backups are written to. */
  dir: string;
  /** An age public key: the file is encrypted to it. */
  recipient?: string;
  /** Signs the file (decision 0057): restore refuses it altered, or without this key. */
  signingKey: BackupSigningKey;
  /** How many finished backups the folder keeps. */
  keep: number;
  now?: Date;
  /** The `backup_runs` row of this backup, named in its header. */
  runId?: string;
  /** Stops the backup (its job's time limit, or the worker stopping). */
  signal?: AbortSignal;
}

export interface BackupResult {
  fileName: string;
  bytes: number;
  rows: number;
  files: number;
  encrypted: boolean;
  missingFiles: string[];
}

/** A `.partial` file untouched this long belongs to a backup that will never finish. */
export const STALE_PARTIAL_MS = 60 * 60_000;

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const now = options.now ?? new Date();
  const encrypted = Boolean(options.recipient);
  const fileName = backupFileName(now, encrypted);
  await fs.mkdir(options.dir, { recursive: true, mode: 0o700 });
  const partial = path.join(options.dir, partialName(fileName, randomUUID()));
  const final = path.join(options.dir, fileName);
  const lines = new PassThrough({ highWaterMark: 1 << 20 });
  const written = writeFile(lines, partial, options.recipient);
  // The writer failing (disk full, folder gone) must also stop the reader waiting on it.
  const failed = new AbortController();
  written.catch(() => failed.abort());
  const write = async (text: string) => {
    options.signal?.throwIfAborted();
    if (!lines.write(text + "\n")) await once(lines, "drain", failed.signal);
  };
  // Every line is signed as written; the signature is the last line, after the end record.
  const signer = new LineSigner(options.signingKey);
  const sink = {
    async line(text: string) {
      signer.add(text);
      await write(text);
    },
  };
  try {
    const summary = await produce(options, sink, now, fileName);
    await write(JSON.stringify({ kind: "signature", mac: signer.digest() }));
    lines.end();
    await written;
    await flushToDisk(partial);
    if (await exists(final)) throw new Error(`${fileName} already exists in ${options.dir}`);
    await fs.rename(partial, final);
    await flushToDisk(options.dir);
    await pruneFolder(options.dir, options.keep, fileName);
    const { size } = await fs.stat(final);
    return { fileName, bytes: size, encrypted, ...summary };
  } catch (error) {
    lines.destroy();
    const writeError = await written.then(
      () => null,
      (reason: unknown) => reason,
    );
    await fs.rm(partial, { force: true });
    // When the file could not be written, that is the cause, not the reader that stopped for it.
    throw error instanceof WriterStopped && writeError ? writeError : error;
  }
}

class WriterStopped extends Error {
  override name = "WriterStopped";
}

/** gzip, then age when there is a recipient, into `file` (owner-only: it holds every secret). */
async function writeFile(lines: Readable, file: string, recipient?: string): Promise<void> {
  const output = createWriteStream(file, { flags: "wx", mode: 0o600 });
  const gzip = createGzip();
  if (!recipient) return pipeline(lines, gzip, output);
  // Loaded only for an encrypted backup, not with the site (decision 0051).
  const { Encrypter } = await import("age-encryption");
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  const compressed = pipeline(lines, gzip);
  const encrypted = await encrypter.encrypt(Readable.toWeb(gzip) as ReadableStream<Uint8Array>);
  await Promise.all([
    compressed,
    pipeline(Readable.fromWeb(encrypted as WebReadableStream<Uint8Array>), output),
  ]);
}

async function produce(
  options: BackupOptions,
  sink: { line(text: string): Promise<void> },
  now: Date,
  fileName: string,
): Promise<Omit<BackupResult, "fileName" | "bytes" | "encrypted">> {
  const releaseFiles = options.releases.kind === "local" ? "included" : "s3";
  const snapshot = await writeSnapshot(options.handle, sink, (migrations) => {
    const header: BackupHeader = {
      kind: "header",
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: now.toISOString(),
      engine: options.handle.engine,
      migrations,
      fileName,
      ...(options.runId ? { runId: options.runId } : {}),
      releaseFiles,
      signing: { source: options.signingKey.source, keyId: options.signingKey.id },
    };
    return sink.line(JSON.stringify(header));
  });
  let files = 0;
  for (const name of DATA_DIR_FILES) {
    const content = await fs.readFile(path.join(options.dataDir, name)).catch(() => null);
    if (!content) continue;
    await writeFileParts(sink, "data", name, Readable.from([content]));
    files += 1;
  }
  const missingFiles: string[] = [];
  if (releaseFiles === "included") {
    for (const key of snapshot.releaseKeys) {
      const body = await options.releases.read(key).catch(() => null);
      if (!body) {
        missingFiles.push(key);
        continue;
      }
      await writeFileParts(sink, "release", key, body);
      files += 1;
    }
  }
  await sink.line(
    JSON.stringify({
      kind: "end",
      tables: snapshot.tables,
      sequences: snapshot.sequences,
      files,
      missingFiles,
    }),
  );
  const rows = Object.values(snapshot.tables).reduce((sum, count) => sum + count, 0);
  return { rows, files, missingFiles };
}

/** A file as lines of base64 parts; the last names the whole file's SHA-256. */
async function writeFileParts(
  sink: { line(text: string): Promise<void> },
  area: "data" | "release",
  filePath: string,
  body: Readable,
): Promise<void> {
  const hash = createHash("sha256");
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async (last: boolean) => {
    const data = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    await sink.line(
      JSON.stringify({
        kind: "file",
        area,
        path: filePath,
        data: data.toString("base64"),
        ...(last ? { sha256: hash.digest("hex") } : {}),
      }),
    );
  };
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    hash.update(buffer);
    pending.push(buffer);
    pendingBytes += buffer.length;
    if (pendingBytes >= FILE_PART_BYTES) await flush(false);
  }
  await flush(true);
}

/**
 * The privacy policy promises that an erased account leaves the backups within 30 days of its
 * erasure (itself within 30 days): no backup is kept longer than this, whatever BACKUP_KEEP says.
 */
export const BACKUP_MAX_AGE_DAYS = 30;

/**
 * Of the names in a folder or a bucket, the finished backups the retention rule removes: all but
 * the newest `keep`, and any older than BACKUP_MAX_AGE_DAYS, never the one just written.
 */
export function backupsToRemove(
  names: readonly string[],
  keep: number,
  justWritten: string | undefined,
  now: number,
): string[] {
  const finished = names.filter(isBackupFileName).sort().reverse();
  const oldest = now - BACKUP_MAX_AGE_DAYS * 86_400_000;
  return finished.filter(
    (name, index) =>
      name !== justWritten && !(index < Math.max(keep, 1) && backupTime(name) >= oldest),
  );
}

/**
 * Keeps the newest `keep` finished backups, none older than BACKUP_MAX_AGE_DAYS but the one just
 * written, and removes partial files left by cut-short runs.
 */
export async function pruneFolder(
  dir: string,
  keep: number,
  justWritten?: string,
  now: number = Date.now(),
): Promise<string[]> {
  const removed: string[] = [];
  const names = await fs.readdir(dir);
  for (const name of backupsToRemove(names, keep, justWritten, now)) {
    await fs.rm(path.join(dir, name), { force: true });
    removed.push(name);
  }
  for (const name of names.filter(isPartialName)) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat && now - stat.mtimeMs >= STALE_PARTIAL_MS) {
      await fs.rm(path.join(dir, name), { force: true });
      removed.push(name);
    }
  }
  return removed;
}

/** The finished backups in `dir`, newest first. */
export async function listBackups(dir: string): Promise<{ name: string; bytes: number }[]> {
  const names = (await fs.readdir(dir).catch(() => [] as string[]))
    .filter(isBackupFileName)
    .sort()
    .reverse();
  const listed: { name: string; bytes: number }[] = [];
  for (const name of names) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat) listed.push({ name, bytes: stat.size });
  }
  return listed;
}

async function flushToDisk(file: string): Promise<void> {
  const handle = await fs.open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Waits for `event`, or fails when `signal` aborts (the other end of the pipe broke). */
function once(emitter: PassThrough, event: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      emitter.off(event, onEvent);
      reject(new WriterStopped("the backup file could not be written"));
    };
    const onEvent = () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    if (signal.aborted) return onAbort();
    emitter.once(event, onEvent);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
