/**
 * The backup file (docs/decisions/0049): gzip'd JSON lines, encrypted with age when the operator
 * gives a public key. One header, then every table's rows in foreign-key order, the sequences,
 * the data folder's secrets and the release files, then one end record that counts them all. A
 * file without its end record is incomplete and is never restored.
 *
 * Rows are stored as PostgreSQL wrote them (`row_to_json`) and loaded back by PostgreSQL
 * (`json_populate_recordset`): types round-trip as the database knows them (bigint, numeric,
 * bytea, jsonb, timestamps), with no JavaScript conversion in between. So a rows line is written
 * and read as text around its `rows` array, never parsed into numbers.
 */
import { z } from "zod";

export const BACKUP_FORMAT = "pinout-backup";
/** 2: signed (decision 0057). A version-1 file cannot be checked, so it is not restored. */
export const BACKUP_VERSION = 2;

/**
 * The files of DATA_DIR a backup holds besides the database: the secrets the embedded default
 * generates (auth, and the seal of the signing keys), and the payment sandbox's own state (what
 * Razorpay would hold for a live site). Each only when present; nothing else of the folder.
 */
export const DATA_DIR_FILES = [
  "auth-secret",
  "keys-encryption-secret",
  "razorpay-sandbox.json",
] as const;

/**
 * Tables a backup never holds (issue 53, finding 13): live bearer secrets. A session row's token
 * with the auth secret (itself in the backup on the embedded default) made a working cookie, an
 * admin's included, from the file alone. After a restore people sign in again; links in flight
 * (verification, password reset, the desktop hand-offs) are asked for again.
 */
export const LEFT_OUT_OF_BACKUPS: Readonly<Record<string, string>> = {
  session: "browser sessions: each token is a working sign-in",
  verification: "sign-up, sign-in and password-reset links in flight, valid within the hour",
  one_time_tokens: "desktop hand-offs and confirmations in flight, valid for minutes",
};

/**
 * Columns a backup holds as null: the row must survive (a Google sign-in method), the secret
 * need not. Better Auth stores Google's OAuth tokens as they came; the next sign-in with Google
 * writes new ones.
 */
export const BLANKED_IN_BACKUPS: Readonly<Record<string, readonly string[]>> = {
  account: ["access_token", "refresh_token", "id_token"],
};

/**
 * Columns whose names say secret that a backup keeps, and why that is safe or needed. A test
 * (backup.test.ts) fails for any column named like a token, secret, password or code that is in
 * none of these lists, so a new one cannot slip into backups unnoticed.
 */
export const KEPT_IN_BACKUPS: Readonly<Record<string, string>> = {
  "account.password": "a scrypt hash: people sign in with their passwords after a restore",
  "two_factor.secret": "encrypted by Better Auth; without it two-factor sign-in stops working",
  "two_factor.backup_codes": "encrypted by Better Auth, as the secret",
  "coupons.code": "a code the operator publishes; it signs no one in",
  "referral_codes.code": "a customer's public share link; it signs no one in",
};

/**
 * The secret backups are signed with when nothing else is set (decision 0057), generated into
 * DATA_DIR. Never one of DATA_DIR_FILES: a backup holding its own signing key proves nothing.
 */
export const SIGNING_SECRET_FILE = "backup-signing-secret";

/** Where a backup's signing key comes from (signing.server.ts), named in its header. */
export const SIGNING_SOURCES = [
  "BACKUP_SIGNING_SECRET",
  "BETTER_AUTH_SECRET",
  `DATA_DIR/${SIGNING_SECRET_FILE}`,
] as const;
export type SigningSource = (typeof SIGNING_SOURCES)[number];

/** Release files are written in parts of this many bytes (a line each, base64). */
export const FILE_PART_BYTES = 192 * 1024;

/** Rows fetched and written per line. */
export const ROWS_PER_LINE = 200;

export const headerSchema = z.object({
  kind: z.literal("header"),
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.string(),
  engine: z.enum(["pglite", "postgres"]),
  /** The migrations applied to the database when it was backed up (drizzle's journal `when`s). */
  migrations: z.object({ count: z.number().int().min(0), last: z.number().int().min(0) }),
  /** The file's own name, and the run that took it (`backup_runs`), when the site took it. */
  fileName: z.string(),
  runId: z.uuid().optional(),
  /** Release files: in this file ("included"), or in S3, whose versioning is their backup. */
  releaseFiles: z.enum(["included", "s3"]),
  /** The key the last line's MAC is made with: where it comes from, and its id (signing.server). */
  signing: z.object({
    source: z.enum(SIGNING_SOURCES),
    keyId: z.string().regex(/^[0-9a-f]{16}$/),
  }),
});
export type BackupHeader = z.infer<typeof headerSchema>;

const sequenceSchema = z.object({
  kind: z.literal("sequence"),
  name: z.string(),
  lastValue: z.string().regex(/^-?\d+$/),
  isCalled: z.boolean(),
});

const fileSchema = z.object({
  kind: z.literal("file"),
  area: z.enum(["data", "release"]),
  path: z.string().min(1),
  /** Base64 of the next part; the last part carries `sha256` of the whole file. */
  data: z.string(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

const endSchema = z.object({
  kind: z.literal("end"),
  tables: z.record(z.string(), z.number().int().min(0)),
  sequences: z.number().int().min(0),
  files: z.number().int().min(0),
  /** Release files the database names that were not in storage when the backup ran. */
  missingFiles: z.array(z.string()),
});
export type BackupEnd = z.infer<typeof endSchema>;

/** The last line, after the end record: HMAC-SHA256 of every line before it, newlines included. */
const signatureSchema = z.object({
  kind: z.literal("signature"),
  mac: z.string().regex(/^[0-9a-f]{64}$/),
});

const lineSchema = z.discriminatedUnion("kind", [
  headerSchema,
  sequenceSchema,
  fileSchema,
  endSchema,
  signatureSchema,
]);

export type BackupLine =
  z.infer<typeof lineSchema> | { kind: "rows"; table: string; count: number; rowsJson: string };

const ROWS_PREFIX = '{"kind":"rows","table":';

/** One rows line: `rowJsons` are PostgreSQL's own JSON texts of the rows, kept as they are. */
export function rowsLine(table: string, rowJsons: readonly string[]): string {
  return `${ROWS_PREFIX}${JSON.stringify(table)},"count":${rowJsons.length},"rows":[${rowJsons.join(",")}]}`;
}

const ROWS_LINE = /^\{"kind":"rows","table":("(?:[^"\\]|\\.)*"),"count":(\d+),"rows":(\[.*\])\}$/s;

export class BackupFormatError extends Error {
  override name = "BackupFormatError";
}

/** Reads one line of a backup; throws BackupFormatError on anything else. */
export function parseLine(text: string): BackupLine {
  if (text.startsWith(ROWS_PREFIX)) {
    const match = ROWS_LINE.exec(text);
    if (!match) throw new BackupFormatError("a rows record is malformed");
    return {
      kind: "rows",
      table: JSON.parse(match[1]!) as string,
      count: Number(match[2]),
      rowsJson: match[3]!,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupFormatError("a record is not JSON (the file is damaged or not a backup)");
  }
  const record = value as { kind?: unknown; format?: unknown; version?: unknown };
  if (record.kind === "header" && record.format === BACKUP_FORMAT && record.version === 1)
    throw new BackupFormatError(
      "the backup was made before backups were signed (format version 1): nothing proves it is unaltered, so it is not restored; take a new backup with this version",
    );
  const parsed = lineSchema.safeParse(value);
  if (!parsed.success) throw new BackupFormatError("a record is not one a backup holds");
  return parsed.data;
}

/**
 * `pinout-20261128T203000.123Z.backup.gz`, with `.age` when encrypted: sorts by time, and two
 * backups in one second (an admin's and the schedule's) do not take the same name.
 */
export function backupFileName(at: Date, encrypted: boolean): string {
  const stamp = at.toISOString().replace(/[-:]/g, "");
  return `pinout-${stamp}.backup.gz${encrypted ? ".age" : ""}`;
}

const BACKUP_NAME = /^pinout-\d{8}T\d{6}\.\d{3}Z\.backup\.gz(\.age)?$/;

/** When a backup was taken, from its name (milliseconds since the epoch). */
export function backupTime(name: string): number {
  const match = /^pinout-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z/.exec(name);
  if (!match) return Number.NaN;
  const [, year, month, day, hour, minute, second, ms] = match.map(Number);
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!, ms!);
}

/** A finished backup's name (a file being written has another: see `partialName`). */
export function isBackupFileName(name: string): boolean {
  return BACKUP_NAME.test(name);
}

/** Where a backup is written until complete: hidden, and never a name restore would take. */
export function partialName(finalName: string, unique: string): string {
  return `.${finalName}.${unique}.partial`;
}

export function isPartialName(name: string): boolean {
  return name.startsWith(".pinout-") && name.endsWith(".partial");
}
