/**
 * How the operator reads the state of backups (dashboard and /admin/backups): one sentence, and
 * whether it needs them. Pure: the pages pass what the server read.
 */
import { formatDateTime } from "./dates";
import { countOf } from "./format";

export interface BackupHealthInput {
  /** BACKUP_DIR is set. */
  configured: boolean;
  /** BACKUP_INTERVAL_HOURS (0: only when asked). */
  intervalHours: number;
  lastSuccessAt: string | Date | null;
  /** The newest run failed (or was cut short) after the last success. */
  lastRunFailed: boolean;
}

export interface BackupHealth {
  ok: boolean;
  message: string;
}

/** Without a schedule, a backup older than this needs taking. */
export const UNSCHEDULED_BACKUP_DAYS = 7;

export function backupHealth(input: BackupHealthInput, now: Date = new Date()): BackupHealth {
  if (!input.configured)
    return {
      ok: false,
      message:
        "Backups are off: set BACKUP_DIR (and BACKUP_INTERVAL_HOURS for a schedule). Until then a lost disk loses every customer, payment and invoice.",
    };
  if (!input.lastSuccessAt)
    return {
      ok: false,
      message: input.lastRunFailed
        ? "No backup has succeeded yet: the last attempt failed."
        : "No backup has been taken yet.",
    };
  const at = new Date(input.lastSuccessAt);
  const hours = Math.floor((now.getTime() - at.getTime()) / 3_600_000);
  const limitHours =
    input.intervalHours > 0 ? input.intervalHours * 2 : UNSCHEDULED_BACKUP_DAYS * 24;
  const when = `The last backup succeeded on ${formatDateTime(at)} (${hours < 1 ? "under an hour" : countOf(hours, "hour")} ago)`;
  if (input.lastRunFailed) return { ok: false, message: `${when}; the attempt after it failed.` };
  if (hours >= limitHours)
    return {
      ok: false,
      message: `${when}: that is too long${input.intervalHours > 0 ? ` for a backup every ${countOf(input.intervalHours, "hour")}` : ""}.`,
    };
  return { ok: true, message: `${when}.` };
}
