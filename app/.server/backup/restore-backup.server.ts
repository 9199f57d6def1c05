/**
 * Restores a backup into an empty DATA_DIR (embedded) or an empty PostgreSQL database, never over
 * a live one (docs/decisions/0049). The rows load in one transaction, committed only once the
 * file's end record is read and every count matches: a damaged, cut-short or wrongly decrypted
 * file restores nothing. Whatever the restore created is removed again when it fails.
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import readline from "node:readline";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { createGunzip } from "node:zlib";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { type DatabaseHandle, type Executor, migrate, openDatabase } from "../db/client";
import { backupRuns, jobs } from "../db/schema";
import type { ReleaseStorage } from "../releases/storage/index.server";
import {
  emptyDatabase,
  insertRows,
  isEmptyDatabase,
  sequenceNames,
  setSequence,
  tablesInLoadOrder,
} from "./database.server";
import {
  BackupFormatError,
  type BackupHeader,
  type BackupLine,
  DATA_DIR_FILES,
  parseLine,
  type SigningSource,
} from "./format";
import { BACKUP_JOB } from "./jobs.server";
import { compatibleMigrations, migrationsUpTo } from "./migrations.server";
import { type BackupSigningKey, LineSigner, macMatches } from "./signing.server";

export interface RestoreOptions {
  file: string;
  /** The age private key (AGE-SECRET-KEY-1…) of an encrypted backup. */
  identity?: string;
  /** The keys a backup may be signed with here (signingKeysForRestore): one must match. */
  signingKeys: readonly BackupSigningKey[];
  dataDir: string;
  /** PostgreSQL: restore into this (empty) database; unset, into DATA_DIR's embedded one. */
  databaseUrl?: string;
  releases: ReleaseStorage;
}

export interface RestoreSummary {
  header: BackupHeader;
  rows: number;
  tables: number;
  files: number;
  missingFiles: string[];
}

/** The file is unsigned, altered, or signed with a key this machine does not have. */
export class BackupSignatureError extends Error {
  override name = "BackupSignatureError";
}

/** The target holds data: restore never overwrites. */
export class RestoreRefusedError extends Error {
  override name = "RestoreRefusedError";
}

const AGE_MAGIC = "age-encryption.org/v1\n";

export interface VerifiedBackup {
  header: BackupHeader;
  end: Extract<BackupLine, { kind: "end" }>;
  rows: number;
}

/**
 * Reads a whole backup without writing anything: decrypts and decompresses it, checks every
 * record, each file's SHA-256 and the end record's counts, and that this version can restore it.
 * `npm run restore -- --check`, and the first pass of every restore: a damaged, cut-short or
 * wrongly decrypted file is refused before any database is made.
 */
export async function verifyBackup(
  file: string,
  options: { identity?: string; signingKeys: readonly BackupSigningKey[] },
): Promise<VerifiedBackup> {
  const lines = await openLines(file, options.identity);
  try {
    const reader = new SignedLines(lines, options.signingKeys);
    const header = await reader.header();
    await compatibleMigrations(header.migrations);
    const counted: Record<string, number> = {};
    let sequences = 0;
    let files = 0;
    let open: { path: string; hash: ReturnType<typeof createHash> } | undefined;
    for (;;) {
      const line = await reader.next();
      if (line.kind === "rows") counted[line.table] = (counted[line.table] ?? 0) + line.count;
      else if (line.kind === "sequence") sequences += 1;
      else if (line.kind === "file") {
        const key = `${line.area}/${line.path}`;
        if (!open || open.path !== key) open = { path: key, hash: createHash("sha256") };
        open.hash.update(Buffer.from(line.data, "base64"));
        if (line.sha256) {
          if (open.hash.digest("hex") !== line.sha256)
            throw new BackupFormatError(`${line.path} does not match its checksum`);
          files += 1;
          open = undefined;
        }
      } else {
        checkCounts(line, counted, sequences, files);
        await reader.signed();
        const rows = Object.values(counted).reduce((sum, count) => sum + count, 0);
        return { header, end: line, rows };
      }
    }
  } finally {
    await lines.return?.(undefined);
  }
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  await refuseNonEmptyFolder(options.dataDir);
  if (options.databaseUrl) await refuseNonEmptyDatabase(options.databaseUrl);
  const { header } = await verifyBackup(options.file, options);
  // Read again to load: checked again as it loads (the file could change between the passes).
  const lines = await openLines(options.file, options.identity);
  const reader = new SignedLines(lines, options.signingKeys);
  await reader.header();
  const schema = await migrationsUpTo(header.migrations);
  const staging = path.join(options.dataDir, `.restore-${randomUUID()}`);
  const created: string[] = [];
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
    if (!options.databaseUrl) created.push(path.join(options.dataDir, "db"));
    await migrate(handle, schema.folder);
    await fs.mkdir(staging, { recursive: true, mode: 0o700 });
    created.push(staging);
    const loaded = await loadLines(handle, reader, staging);
    for (const name of loaded.dataFiles) {
      const target = path.join(options.dataDir, name);
      await fs.rename(path.join(staging, "data", name), target);
      created.push(target);
    }
    for (const key of loaded.releaseKeys) {
      const source = path.join(staging, "release", key);
      await options.releases.put(key, createReadStream(source), {
        maxBytes: Number.MAX_SAFE_INTEGER,
        contentType: "application/octet-stream",
      });
    }
    // This version's newer migrations, as any start would apply them; then the schema is this
    // version's, which the fix-up of the work in flight is written against.
    await migrate(handle);
    await settleWorkInFlight(handle.db, header);
    await fs.rm(staging, { recursive: true, force: true });
    return {
      header,
      rows: loaded.rows,
      tables: Object.keys(loaded.end.tables).length,
      files: loaded.end.files,
      missingFiles: loaded.end.missingFiles,
    };
  } catch (error) {
    if (handle && options.databaseUrl) await emptyDatabase(handle.db).catch(() => {});
    await handle?.close().catch(() => {});
    handle = undefined;
    for (const target of created.reverse()) await fs.rm(target, { recursive: true, force: true });
    throw error;
  } finally {
    await handle?.close();
    await schema.remove();
    await lines.return?.(undefined);
  }
}

/**
 * A backup's lines in order, each added to the MAC as read (decision 0057): the header names the
 * key, which must be one of this machine's; after the end record, `signed()` reads the last line
 * and compares. Nothing loaded is committed before that.
 */
class SignedLines {
  private signer: LineSigner | undefined;
  constructor(
    private readonly lines: AsyncIterator<string>,
    private readonly keys: readonly BackupSigningKey[],
  ) {}

  /** The first line, which must be a header naming a key this machine has. */
  async header(): Promise<BackupHeader> {
    const first = await this.lines.next();
    if (first.done) throw new BackupFormatError("the file is empty");
    const header = parseLine(first.value);
    if (header.kind !== "header")
      throw new BackupFormatError("the file does not start as a backup");
    const key = this.keys.find((candidate) => candidate.id === header.signing.keyId);
    if (!key)
      throw new BackupSignatureError(
        `the backup was signed with a key from ${header.signing.source} (key id ${header.signing.keyId}) that is not here${this.keys.length > 0 ? ` (here: ${this.keys.map((k) => `${k.source}, key id ${k.id}`).join("; ")})` : ""}: ${WHERE_KEYS_COME_FROM[header.signing.source]}`,
      );
    this.signer = new LineSigner(key);
    this.signer.add(first.value);
    return header;
  }

  /** The next record; a file that ends before its end record is incomplete. */
  async next(): Promise<Exclude<BackupLine, { kind: "header" | "signature" }>> {
    for (;;) {
      const next = await this.lines.next();
      if (next.done)
        throw new BackupFormatError(
          "the backup is incomplete: it ends before its last record (cut short while written or copied)",
        );
      this.signer!.add(next.value);
      if (next.value === "") continue;
      const line = parseLine(next.value);
      if (line.kind === "header") throw new BackupFormatError("the file holds a second header");
      if (line.kind === "signature")
        throw new BackupFormatError("the file is signed before its end record");
      return line;
    }
  }

  /** After the end record: the signature, matching every line read, and nothing after it. */
  async signed(): Promise<void> {
    const computed = this.signer!.digest();
    const next = await this.lines.next();
    if (next.done)
      throw new BackupSignatureError(
        "the backup is not signed: it ends at its end record, without the signature every backup of this version carries",
      );
    const line = parseLine(next.value);
    if (line.kind !== "signature" || !macMatches(computed, line.mac))
      throw new BackupSignatureError(
        "the backup's signature does not match its contents: it was changed after it was written",
      );
    for (;;) {
      const rest = await this.lines.next();
      if (rest.done) return;
      if (rest.value !== "")
        throw new BackupSignatureError("the file goes on after its signature: it was changed");
    }
  }
}

/** What the operator sets for restore to have a backup's key (README "Backups"). */
const WHERE_KEYS_COME_FROM: Record<SigningSource, string> = {
  BACKUP_SIGNING_SECRET: "set BACKUP_SIGNING_SECRET to the value the site had when it took it",
  BETTER_AUTH_SECRET: "set BETTER_AUTH_SECRET to the value the site had when it took it",
  "DATA_DIR/backup-signing-secret":
    "copy the file backup-signing-secret from the DATA_DIR of the site that took it into this DATA_DIR (or set BACKUP_SIGNING_SECRET to its content)",
};

/** The end record's counts against what was read. */
function checkCounts(
  end: Extract<BackupLine, { kind: "end" }>,
  counted: Record<string, number>,
  sequences: number,
  files: number,
): void {
  const expected = Object.entries(end.tables).filter(([, count]) => count > 0);
  if (
    expected.some(([table, count]) => counted[table] !== count) ||
    Object.keys(counted).length !== expected.length ||
    sequences !== end.sequences ||
    files !== end.files
  )
    throw new BackupFormatError("the backup's contents do not match its own counts");
}

/** A PostgreSQL database with anything of the site's in it is never restored into. */
async function refuseNonEmptyDatabase(databaseUrl: string): Promise<void> {
  const handle = await openDatabase({ dataDir: "", databaseUrl });
  try {
    if (!(await isEmptyDatabase(handle.db)))
      throw new RestoreRefusedError(
        "the database already holds tables: restore only into an empty database (create a new one)",
      );
  } finally {
    await handle.close();
  }
}

/** DATA_DIR may exist (made empty, or holding only the mail folder), but not hold site data. */
async function refuseNonEmptyFolder(dataDir: string): Promise<void> {
  const found: string[] = [];
  if (await exists(path.join(dataDir, "db", "PG_VERSION"))) found.push("an embedded database");
  for (const name of DATA_DIR_FILES) if (await exists(path.join(dataDir, name))) found.push(name);
  const releases = await fs.readdir(path.join(dataDir, "releases")).catch(() => []);
  if (releases.length > 0) found.push("release files");
  if (found.length > 0)
    throw new RestoreRefusedError(
      `${dataDir} already holds ${found.join(", ")}: restore only into an empty DATA_DIR`,
    );
}

/** The file's lines, decrypted when it is an age file and gunzipped. */
async function openLines(file: string, identity?: string): Promise<AsyncIterator<string>> {
  const start = await readStart(file, AGE_MAGIC.length);
  let body: Readable = createReadStream(file);
  if (start === AGE_MAGIC) {
    if (!identity)
      throw new BackupFormatError(
        "the backup is encrypted: give the age private key (--identity <file>)",
      );
    const { Decrypter } = await import("age-encryption");
    const decrypter = new Decrypter();
    decrypter.addIdentity(identity);
    const plain = await decrypter.decrypt(Readable.toWeb(body) as ReadableStream<Uint8Array>);
    body = Readable.fromWeb(plain as WebReadableStream<Uint8Array>);
  }
  const gunzip = createGunzip();
  body.on("error", (error) => gunzip.destroy(error));
  const reader = readline.createInterface({ input: body.pipe(gunzip), crlfDelay: Infinity });
  return reader[Symbol.asyncIterator]();
}

async function readStart(file: string, length: number): Promise<string> {
  const handle = await fs.open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead).toString("latin1");
  } finally {
    await handle.close();
  }
}

interface Loaded {
  rows: number;
  dataFiles: string[];
  releaseKeys: string[];
  end: Extract<BackupLine, { kind: "end" }>;
}

/** Reads every line after the header into the database (one transaction) and `staging`. */
async function loadLines(
  handle: DatabaseHandle,
  reader: SignedLines,
  staging: string,
): Promise<Loaded> {
  return handle.db.transaction(async (tx) => {
    const tables = new Set(await tablesInLoadOrder(tx));
    const sequences = new Set(await sequenceNames(tx));
    const counted: Record<string, number> = {};
    const dataFiles: string[] = [];
    const releaseKeys: string[] = [];
    let sequencesSet = 0;
    let open: { target: string; hash: ReturnType<typeof createHash> } | undefined;
    for (;;) {
      const line = await reader.next();
      if (line.kind === "rows") {
        await insertRows(tx, tables, line.table, line.rowsJson);
        counted[line.table] = (counted[line.table] ?? 0) + line.count;
      } else if (line.kind === "sequence") {
        await setSequence(tx, sequences, line.name, line.lastValue, line.isCalled);
        sequencesSet += 1;
      } else if (line.kind === "file") {
        const target = stagedPath(staging, line.area, line.path);
        if (!open || open.target !== target) {
          await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
          await fs.writeFile(target, "", { flag: "wx", mode: 0o600 });
          open = { target, hash: createHash("sha256") };
        }
        const data = Buffer.from(line.data, "base64");
        open.hash.update(data);
        await fs.appendFile(target, data);
        if (line.sha256) {
          if (open.hash.digest("hex") !== line.sha256)
            throw new BackupFormatError(`${line.path} does not match its checksum`);
          (line.area === "data" ? dataFiles : releaseKeys).push(line.path);
          open = undefined;
        }
      } else {
        checkCounts(line, counted, sequencesSet, dataFiles.length + releaseKeys.length);
        // Inside the transaction: a file changed since the first pass commits nothing.
        await reader.signed();
        const rows = Object.values(counted).reduce((sum, count) => sum + count, 0);
        return { rows, dataFiles, releaseKeys, end: line };
      }
    }
  });
}

/**
 * The snapshot was taken while work ran, by processes that do not exist here. The backup that
 * took it finished (its run and its job are marked so: otherwise the restored site would show it
 * running, then take it again); every other job a process had claimed is due again at once, as
 * after any crash (at-least-once: each job is idempotent).
 */
async function settleWorkInFlight(tx: Executor, header: BackupHeader): Promise<void> {
  const finishedAt = new Date(header.createdAt);
  if (header.runId)
    await tx
      .update(backupRuns)
      .set({ status: "succeeded", fileName: header.fileName, finishedAt })
      .where(and(eq(backupRuns.id, header.runId), eq(backupRuns.status, "running")));
  const inFlight = and(
    isNull(jobs.completedAt),
    isNull(jobs.failedAt),
    isNotNull(jobs.lockedUntil),
  );
  await tx
    .update(jobs)
    .set({ completedAt: finishedAt, lockedUntil: null })
    .where(and(inFlight, eq(jobs.kind, BACKUP_JOB)));
  await tx.update(jobs).set({ lockedUntil: null }).where(inFlight);
}

/** Where a file of the backup is staged: a known DATA_DIR file's name, or a key inside `release/`. */
function stagedPath(staging: string, area: "data" | "release", filePath: string): string {
  if (area === "data") {
    if (!(DATA_DIR_FILES as readonly string[]).includes(filePath))
      throw new BackupFormatError(`the backup holds an unknown DATA_DIR file: ${filePath}`);
    return path.join(staging, "data", filePath);
  }
  const root = path.join(staging, "release");
  const target = path.resolve(root, filePath);
  if (!target.startsWith(root + path.sep))
    throw new BackupFormatError(`a release file's path leaves its folder: ${filePath}`);
  return target;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
