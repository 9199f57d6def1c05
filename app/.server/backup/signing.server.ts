/**
 * Backups are signed (issue 53, finding 14; decision 0057): an HMAC-SHA256 over every line of the
 * file, with a key the file itself does not hold, so an edited backup (a role changed to admin)
 * or one made elsewhere is refused by restore. The key is derived from the first of:
 *
 * 1. BACKUP_SIGNING_SECRET, when set;
 * 2. BETTER_AUTH_SECRET, when set in the environment (required with PostgreSQL, shared by every
 *    instance; never in a backup);
 * 3. DATA_DIR/backup-signing-secret, generated on the first backup. Never in a backup (it is not
 *    one of DATA_DIR_FILES): the operator copies it off the machine to restore elsewhere.
 *
 * The embedded default's generated `auth-secret` is not a candidate: it is in every backup.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Env } from "../env";
import { dataDirSecret } from "../security/data-dir-secret.server";
import { SIGNING_SECRET_FILE, type SigningSource } from "./format";

export interface BackupSigningKey {
  source: SigningSource;
  /** Names the key in the header, so restore picks the right one and says which is missing. */
  id: string;
  key: Buffer;
}

type SigningConfig = Pick<Env, "BACKUP_SIGNING_SECRET" | "BETTER_AUTH_SECRET" | "DATA_DIR">;

function derive(source: SigningSource, secret: string): BackupSigningKey {
  // A key of its own: a leaked backup MAC tells nothing about the auth secret, and back.
  const key = Buffer.from(hkdfSync("sha256", secret, "", "pinout backup signature v1", 32));
  const id = createHmac("sha256", key).update("key id").digest("hex").slice(0, 16);
  return { source, id, key };
}

/** Where the key of the next backup comes from (what /admin/backups tells the operator to keep). */
export function signingSourceOf(config: SigningConfig): SigningSource {
  if (config.BACKUP_SIGNING_SECRET) return "BACKUP_SIGNING_SECRET";
  if (config.BETTER_AUTH_SECRET) return "BETTER_AUTH_SECRET";
  return `DATA_DIR/${SIGNING_SECRET_FILE}`;
}

/** The key a new backup is signed with: generated into DATA_DIR when nothing else is set. */
export function signingKeyForBackup(config: SigningConfig): BackupSigningKey {
  const source = signingSourceOf(config);
  if (source === "BACKUP_SIGNING_SECRET") return derive(source, config.BACKUP_SIGNING_SECRET!);
  if (source === "BETTER_AUTH_SECRET") return derive(source, config.BETTER_AUTH_SECRET!);
  return derive(source, dataDirSecret(config.DATA_DIR, SIGNING_SECRET_FILE));
}

/** Every key restore can check a backup with here; none is generated (it could sign nothing). */
export function signingKeysForRestore(config: SigningConfig): BackupSigningKey[] {
  const keys: BackupSigningKey[] = [];
  if (config.BACKUP_SIGNING_SECRET)
    keys.push(derive("BACKUP_SIGNING_SECRET", config.BACKUP_SIGNING_SECRET));
  if (config.BETTER_AUTH_SECRET) keys.push(derive("BETTER_AUTH_SECRET", config.BETTER_AUTH_SECRET));
  const file = readIfPresent(path.join(config.DATA_DIR, SIGNING_SECRET_FILE));
  if (file) keys.push(derive(`DATA_DIR/${SIGNING_SECRET_FILE}`, file));
  return keys;
}

function readIfPresent(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8").trim() || null;
  } catch {
    return null;
  }
}

/** The MAC of a file's lines, fed as they are written or read (each with its newline). */
export class LineSigner {
  private readonly hmac;
  constructor(key: BackupSigningKey) {
    this.hmac = createHmac("sha256", key.key);
  }
  add(line: string): void {
    this.hmac.update(line, "utf8").update("\n");
  }
  digest(): string {
    return this.hmac.digest("hex");
  }
}

/** Compares a file's MAC with the one computed, in constant time (both are 32 bytes of hex). */
export function macMatches(computed: string, given: string): boolean {
  const left = Buffer.from(computed, "hex");
  const right = Buffer.from(given, "hex");
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}
