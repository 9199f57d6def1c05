import { Form } from "react-router";
import { z } from "zod";
import { backupOverview, healthOf } from "~/.server/backup/backup-runs.server";
import { requestBackup } from "~/.server/backup/jobs.server";
import { requireAdmin } from "~/.server/auth/session";
import { db } from "~/.server/db";
import { env } from "~/.server/env";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { kickJobs } from "~/.server/jobs/kick";
import { AdminPage, AdminSection, AdminTable, TD, TD_NUM } from "~/components/admin/AdminUi";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { formatDateTime } from "~/lib/dates";
import { countOf, formatBytes } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/backups";

export const meta: Route.MetaFunction = () =>
  pageMeta("Backups", "When the last backup succeeded, recent runs, and a backup on demand.");

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const now = new Date();
  const overview = await backupOverview(now);
  return {
    dir: overview.dir,
    offsite: overview.offsite,
    intervalHours: overview.intervalHours,
    keep: overview.keep,
    encrypted: overview.encrypted,
    signing: overview.signing,
    health: healthOf(overview, now),
    runs: overview.runs.map((run) => ({
      id: run.id,
      trigger: run.trigger,
      state: run.state,
      fileName: run.fileName,
      bytes: run.bytes,
      rows: run.rows,
      error: run.error,
      startedAt: run.startedAt.toISOString(),
    })),
    files: overview.files,
  };
}

const schema = z.object({ intent: z.literal("backup-now") });

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    schema,
    async ({ intent }) => {
      if (!env().BACKUP_DIR)
        return refuse(intent, "Backups are off: set BACKUP_DIR first, then restart the site.", 409);
      const queued = await requestBackup(db());
      kickJobs();
      return done(
        intent,
        queued
          ? "A backup is being taken in the background: reload this page to see it finish."
          : "A backup asked for is already waiting or running: this page shows it when finished.",
      );
    },
    { role: "admin" },
  );
}

const TRIGGER_LABELS = { schedule: "Schedule", admin: "Back up now", command: "npm run backup" };
const STATE_LABELS = {
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
  "cut-short": "Did not finish",
};

export default function AdminBackupsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { dir, offsite, intervalHours, keep, encrypted, signing, health, runs, files } = loaderData;
  return (
    <AdminPage>
      <PageHeader
        title="Backups"
        lead="The database, the data folder's secrets and the release files, in one file per backup. README's “Backups” section says how to restore one."
      />
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}
      <AdminSection id="backup-status" title="Status">
        <p
          role={health.ok ? undefined : "alert"}
          className={health.ok ? "text-emerald-300" : "text-amber-200"}
        >
          {health.message}
        </p>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="text-slate-400">Folder</dt>
          <dd className="break-all text-slate-200">{dir ?? "not set (BACKUP_DIR)"}</dd>
          <dt className="text-slate-400">Off this machine</dt>
          <dd className="break-all text-slate-200" data-testid="backup-offsite">
            {offsite
              ? `each backup is also copied to ${offsite}, which keeps the same ones`
              : "not copied anywhere by the site (set BACKUP_S3_BUCKET, or sync the folder elsewhere)"}
          </dd>
          <dt className="text-slate-400">Schedule</dt>
          <dd className="text-slate-200">
            {intervalHours > 0
              ? `every ${countOf(intervalHours, "hour")}`
              : "only when asked (set BACKUP_INTERVAL_HOURS for a schedule)"}
          </dd>
          <dt className="text-slate-400">Kept</dt>
          <dd className="text-slate-200">{`the newest ${countOf(keep, "backup")}, none older than 30 days`}</dd>
          <dt className="text-slate-400">Encryption</dt>
          <dd className="text-slate-200">
            {encrypted
              ? "encrypted to the age key in BACKUP_AGE_RECIPIENT"
              : "not encrypted: each file holds every secret (set BACKUP_AGE_RECIPIENT)"}
          </dd>
          <dt className="text-slate-400">Signed</dt>
          <dd className="text-slate-200">
            {signing === "DATA_DIR/backup-signing-secret"
              ? "with DATA_DIR/backup-signing-secret, which no backup holds: keep a copy off this machine, restoring needs it (or set BACKUP_SIGNING_SECRET)"
              : `with a key derived from ${signing}: restoring needs its value`}
          </dd>
        </dl>
        {dir ? (
          <Form method="post" className="mt-4">
            <button type="submit" name="intent" value="backup-now" className="btn-primary">
              Back up now
            </button>
          </Form>
        ) : null}
      </AdminSection>
      <AdminSection id="backup-runs" title="Recent runs">
        {runs.length === 0 ? (
          <p className="text-slate-300">No backup has been taken yet.</p>
        ) : (
          <AdminTable
            caption="Backup runs, newest first"
            columns={[
              "Started",
              "How",
              "State",
              "File",
              { label: "Size", alignRight: true },
              "Note",
            ]}
          >
            {runs.map((run) => (
              <tr key={run.id} className="border-b border-slate-800">
                <td className={TD}>{formatDateTime(run.startedAt)}</td>
                <td className={TD}>{TRIGGER_LABELS[run.trigger]}</td>
                <td className={TD}>{STATE_LABELS[run.state]}</td>
                <td className={`${TD} break-all`}>{run.fileName ?? "—"}</td>
                <td className={TD_NUM}>{run.bytes === null ? "—" : formatBytes(run.bytes)}</td>
                <td className={`${TD} max-w-md break-words`}>
                  {run.error ?? (run.rows === null ? "—" : `${countOf(run.rows, "row")} of data`)}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
      {dir ? (
        <AdminSection id="backup-files" title="In the folder">
          {files.length === 0 ? (
            <p className="text-slate-300">The folder holds no backup.</p>
          ) : (
            <AdminTable
              caption="Backup files, newest first"
              columns={["File", { label: "Size", alignRight: true }]}
            >
              {files.map((file) => (
                <tr key={file.name} className="border-b border-slate-800">
                  <td className={`${TD} break-all`}>{file.name}</td>
                  <td className={TD_NUM}>{formatBytes(file.bytes)}</td>
                </tr>
              ))}
            </AdminTable>
          )}
        </AdminSection>
      ) : null}
    </AdminPage>
  );
}
