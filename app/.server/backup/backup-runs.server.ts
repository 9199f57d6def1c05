/**
 * A backup as the site runs it: recorded in `backup_runs` (started, succeeded with its file and
 * size, or failed with why), for `/admin` and `/admin/backups`.
 */
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { databaseHandle, db } from "../db";
import { type BackupRun, backupRuns, type BACKUP_TRIGGERS } from "../db/schema";
import { env } from "../env";
import { releaseStorage } from "../releases/storage/index.server";
import { type BackupHealth, backupHealth } from "~/lib/backups";
import { formatDateTime } from "~/lib/dates";
import { raiseAlert } from "../alerts/raise.server";
import { createBackup, listBackups } from "./create-backup.server";
import { copyOffsite, offsiteFromEnv, offsiteUrl } from "./offsite.server";
import { signingKeyForBackup, signingSourceOf } from "./signing.server";
import type { SigningSource } from "./format";

export type BackupTrigger = (typeof BACKUP_TRIGGERS)[number];

/** A run "running" for longer than a backup job may take was cut short (its process died). */
export const BACKUP_TIME_LIMIT_MS = 2 * 60 * 60_000;

export class BackupNotConfiguredError extends Error {
  override name = "BackupNotConfiguredError";
  constructor() {
    super("BACKUP_DIR is not set: there is no folder to write backups to");
  }
}

/** Takes a backup into BACKUP_DIR now, recording the run; throws what made it fail. */
export async function runBackup(
  trigger: BackupTrigger,
  options: { dir?: string; signal?: AbortSignal } = {},
): Promise<BackupRun> {
  const config = env();
  const dir = options.dir ?? config.BACKUP_DIR;
  if (!dir) throw new BackupNotConfiguredError();
  const [run] = await db()
    .insert(backupRuns)
    .values({ trigger, encrypted: Boolean(config.BACKUP_AGE_RECIPIENT) })
    .returning();
  try {
    const result = await createBackup({
      handle: databaseHandle(),
      dataDir: config.DATA_DIR,
      releases: releaseStorage(),
      dir,
      recipient: config.BACKUP_AGE_RECIPIENT,
      signingKey: signingKeyForBackup(config),
      keep: config.BACKUP_KEEP,
      signal: options.signal,
      runId: run!.id,
    });
    // Off the machine too, when a bucket is named: the run succeeds only once the copy is in it.
    const offsite = offsiteFromEnv();
    if (offsite) {
      try {
        await copyOffsite(offsite, path.join(dir, result.fileName), result.fileName, {
          keep: config.BACKUP_KEEP,
          signal: options.signal,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(
          `${result.fileName} was written to ${dir} but not copied to ${offsiteUrl(offsite)}: ${message}`,
          { cause: error },
        );
      }
    }
    const [finished] = await db()
      .update(backupRuns)
      .set({
        status: "succeeded",
        fileName: result.fileName,
        bytes: result.bytes,
        rows: result.rows,
        files: result.files,
        error:
          result.missingFiles.length > 0
            ? `release files missing from storage, not in the backup: ${result.missingFiles.join(", ")}`
            : null,
        finishedAt: new Date(),
      })
      .where(eq(backupRuns.id, run!.id))
      .returning();
    return finished!;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db().transaction(async (tx) => {
      await tx
        .update(backupRuns)
        .set({ status: "failed", error: message, finishedAt: new Date() })
        .where(eq(backupRuns.id, run!.id));
      // The admins who chose it hear of it at once (alerts, decision 0041), not only on /admin.
      await raiseAlert(tx, {
        kind: "backup-failed",
        key: `backup-failed:${run!.id}`,
        summary: `The backup started ${formatDateTime(run!.startedAt)} failed: ${message}`,
        path: "/admin/backups",
      });
    });
    throw error;
  }
}

export type BackupRunState = "running" | "succeeded" | "failed" | "cut-short";

/** A run's state as a person should read it: one still "running" past the limit never finished. */
export function backupRunState(run: BackupRun, now = new Date()): BackupRunState {
  if (run.status !== "running") return run.status;
  return now.getTime() - run.startedAt.getTime() > BACKUP_TIME_LIMIT_MS ? "cut-short" : "running";
}

export interface BackupOverview {
  dir: string | null;
  /** Where each backup is also copied, off this machine ("s3://bucket/prefix/"), or null. */
  offsite: string | null;
  intervalHours: number;
  keep: number;
  encrypted: boolean;
  /** Where the signing key comes from: what restoring needs besides the file (decision 0057). */
  signing: SigningSource;
  lastSuccess: BackupRun | null;
  runs: (BackupRun & { state: BackupRunState })[];
  files: { name: string; bytes: number }[];
}

/** What `/admin/backups` shows: configuration, the last success, recent runs, the folder. */
export async function backupOverview(now = new Date()): Promise<BackupOverview> {
  const config = env();
  const runs = await db().select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(30);
  const [lastSuccess] = await db()
    .select()
    .from(backupRuns)
    .where(eq(backupRuns.status, "succeeded"))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1);
  const offsite = offsiteFromEnv();
  return {
    dir: config.BACKUP_DIR ?? null,
    offsite: offsite ? offsiteUrl(offsite) : null,
    intervalHours: config.BACKUP_INTERVAL_HOURS,
    keep: config.BACKUP_KEEP,
    encrypted: Boolean(config.BACKUP_AGE_RECIPIENT),
    signing: signingSourceOf(config),
    lastSuccess: lastSuccess ?? null,
    runs: runs.map((run) => ({ ...run, state: backupRunState(run, now) })),
    files: config.BACKUP_DIR ? await listBackups(config.BACKUP_DIR) : [],
  };
}

/** The operator's sentence about backups (lib/backups), from an overview. */
export function healthOf(
  overview: Pick<BackupOverview, "dir" | "intervalHours" | "lastSuccess" | "runs">,
  now = new Date(),
): BackupHealth {
  // The newest run that has ended: a failure after the last success needs the operator.
  const lastEnded = overview.runs.find((run) => run.state !== "running");
  return backupHealth(
    {
      configured: overview.dir !== null,
      intervalHours: overview.intervalHours,
      lastSuccessAt: overview.lastSuccess?.finishedAt ?? null,
      lastRunFailed: lastEnded !== undefined && lastEnded.state !== "succeeded",
    },
    now,
  );
}
