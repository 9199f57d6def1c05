import { data, Form, Link, redirect, useActionData } from "react-router";
import { z } from "zod";
import { requireAdmin } from "~/.server/auth/session";
import { done, formAction } from "~/.server/forms/action.server";
import { releaseState } from "~/.server/releases/admin.server";
import { ACCEPTED_SUFFIXES } from "~/.server/releases/files";
import { deleteDraft, publishDraft, updateRelease } from "~/.server/releases/manage.server";
import { renderReleaseNotes } from "~/.server/releases/notes.server";
import { findReleaseById } from "~/.server/releases/queries.server";
import { uploadLimitBytes } from "~/.server/releases/storage/index.server";
import { AdminPage, AdminSection, TD, AdminTable } from "~/components/admin/AdminUi";
import { Uploader } from "~/components/admin/ReleaseUploader";
import { ReleaseDeliveries } from "~/components/admin/ReleaseDeliveries";
import { UpdatePaths } from "~/components/admin/UpdatePaths";
import { updatePathsOf } from "~/.server/releases/update-paths";
import { deliveriesOf } from "~/.server/releases/stats.server";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { formatBytes } from "~/lib/format";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/release";

export const meta: Route.MetaFunction = ({ data: loaded }) =>
  pageMeta(
    loaded ? `Release ${loaded.release.version}` : "Release",
    "Files, rollout and state of a desktop release.",
  );

export async function loader({ context, params }: Route.LoaderArgs) {
  requireAdmin(context);
  const release = await findReleaseById(params.id);
  if (!release) throw data({ message: "No such release." }, { status: 404 });
  return {
    deliveries: await deliveriesOf(release.version),
    updatePaths: updatePathsOf(release),
    uploadLimit: uploadLimitBytes(),
    accepted: [...ACCEPTED_SUFFIXES, ".sig"],
    release: {
      id: release.id,
      version: release.version,
      channel: release.channel,
      status: release.status,
      state: releaseState(release),
      rolloutPercent: release.rolloutPercent,
      paused: release.paused,
      critical: release.critical,
      informational: release.informational,
      minimumAutoupdateVersion: release.minimumAutoupdateVersion,
      minimumSystemVersion: release.minimumSystemVersion,
      publishedAt: release.status === "draft" ? null : release.publishedAt.toISOString(),
      notesHtml: renderReleaseNotes(release.notes),
      notesLanguages: Object.keys(release.notesTranslations),
      files: release.assets.map((asset) => ({
        fileName: asset.fileName,
        platform: asset.platform,
        arch: asset.arch,
        kind: asset.kind,
        updater: asset.updater,
        fromVersion: asset.fromVersion,
        size: asset.sizeBytes,
        sha256: asset.sha256,
        tauriSigned: asset.signature !== null,
        sparkleSigned: asset.edSignature !== null,
      })),
    },
  };
}

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("publish"), percent: z.coerce.number().int().min(0).max(100) }),
  z.object({ intent: z.literal("rollout"), percent: z.coerce.number().int().min(0).max(100) }),
  z.object({ intent: z.literal("pause") }),
  z.object({ intent: z.literal("resume") }),
  z.object({ intent: z.literal("pull") }),
  z.object({ intent: z.literal("restore") }),
  z.object({ intent: z.literal("delete") }),
]);

export async function action(args: Route.ActionArgs) {
  const id = args.params.id;
  return formAction(
    args,
    schema,
    async (input) => {
      switch (input.intent) {
        case "publish":
          await publishDraft(id, { rolloutPercent: input.percent });
          return done("publish", `Published to ${input.percent}% of apps.`);
        case "rollout":
          await updateRelease(id, { rolloutPercent: input.percent });
          return done("rollout", `Rollout set to ${input.percent}%.`);
        case "pause":
        case "resume":
          await updateRelease(id, { paused: input.intent === "pause" });
          return done(
            input.intent,
            input.intent === "pause"
              ? "Paused: feeds offer the previous release again."
              : "Rollout resumed.",
          );
        case "pull":
        case "restore":
          await updateRelease(id, { status: input.intent === "pull" ? "pulled" : "published" });
          return done(
            input.intent,
            input.intent === "pull"
              ? "Pulled: no feed or page offers it; apps get the previous release."
              : "Restored.",
          );
        case "delete":
          await deleteDraft(id);
          return redirect("/admin/releases");
      }
    },
    { role: "admin" },
  );
}

function IntentButton({
  intent,
  label,
  tone = "secondary",
}: {
  intent: string;
  label: string;
  tone?: "primary" | "secondary";
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className={tone === "primary" ? "btn-primary" : "btn-secondary"}>
        {label}
      </button>
    </Form>
  );
}

export default function ReleasePage({ loaderData }: Route.ComponentProps) {
  const { release, accepted, uploadLimit } = loaderData;
  const result = useActionData<typeof action>();
  const draft = release.status === "draft";
  const feedback =
    result && "intent" in result ? (
      <FormMessage tone={result.ok ? "success" : "error"} message={result.message} />
    ) : null;

  return (
    <AdminPage>
      <p className="text-sm">
        <Link className="link" to="/admin/releases">
          ← All releases
        </Link>
      </p>
      <PageHeader
        title={`Release ${release.version}`}
        lead={`${release.channel === "beta" ? "Beta" : "Stable"} channel · ${release.state}${
          release.publishedAt ? ` · published ${formatDate(release.publishedAt)}` : ""
        }${release.critical ? " · critical" : ""}${release.informational ? " · informational (Sparkle shows it, does not install it)" : ""}${
          release.minimumAutoupdateVersion
            ? ` · apps below ${release.minimumAutoupdateVersion} ask before updating`
            : ""
        }`}
      />
      {feedback}

      <AdminSection id="files" title="Files">
        {release.files.length === 0 ? (
          <p className="text-sm text-slate-300">No files yet.</p>
        ) : (
          <AdminTable
            caption="Files of this release"
            columns={["File", "Platform", "Arch", "Kind", "Size", "Signed", "SHA-256"]}
          >
            {release.files.map((file) => (
              <tr key={file.fileName} className="border-b border-slate-800/60">
                <td className={`${TD} font-mono text-xs break-all`}>{file.fileName}</td>
                <td className={TD}>{file.platform}</td>
                <td className={TD}>{file.arch}</td>
                <td className={TD}>
                  {file.kind}
                  {file.fromVersion ? ` from ${file.fromVersion}` : ""}
                  {file.updater ? ` (${file.updater})` : ""}
                </td>
                <td className={`${TD} whitespace-nowrap`}>{formatBytes(file.size)}</td>
                <td className={TD}>
                  {[file.tauriSigned ? "Tauri" : null, file.sparkleSigned ? "Sparkle" : null]
                    .filter(Boolean)
                    .join(", ") || "—"}
                </td>
                <td className={`${TD} font-mono text-xs`} title={file.sha256}>
                  {file.sha256.slice(0, 12)}…
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
        {draft ? (
          <div className="mt-6">
            <Uploader releaseId={release.id} accepted={accepted} limit={uploadLimit} />
          </div>
        ) : null}
      </AdminSection>

      <UpdatePaths rows={loaderData.updatePaths} />

      {draft ? null : <ReleaseDeliveries rows={loaderData.deliveries} />}

      <AdminSection
        id="rollout"
        title={draft ? "Publish" : "Rollout"}
        lead={
          draft
            ? "Publishing makes the release visible on the download page (at 100%) and offers it to the share of apps you choose."
            : "Apps are offered this release by a stable hash of their id, so raising the share only adds apps."
        }
      >
        {release.status !== "pulled" ? (
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value={draft ? "publish" : "rollout"} />
            <div>
              <label htmlFor="percent" className="block text-sm font-medium text-slate-200">
                Share of apps offered the update (%)
              </label>
              <input
                id="percent"
                name="percent"
                type="number"
                min={0}
                max={100}
                defaultValue={release.rolloutPercent}
                className="mt-1 block w-32 rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100"
              />
            </div>
            <button type="submit" className="btn-primary">
              {draft ? "Publish" : "Set rollout"}
            </button>
          </Form>
        ) : null}
        <div className="mt-4 flex flex-wrap gap-3">
          {draft ? <IntentButton intent="delete" label="Delete draft" /> : null}
          {release.status === "published" ? (
            <>
              <IntentButton
                intent={release.paused ? "resume" : "pause"}
                label={release.paused ? "Resume rollout" : "Pause rollout"}
              />
              <IntentButton intent="pull" label="Pull release" />
            </>
          ) : null}
          {release.status === "pulled" ? <IntentButton intent="restore" label="Restore" /> : null}
        </div>
      </AdminSection>

      <AdminSection id="notes" title="Release notes">
        <div
          className="space-y-3 text-sm text-slate-300 [&_ul]:list-disc [&_ul]:pl-6"
          dangerouslySetInnerHTML={{ __html: release.notesHtml || "<p>No notes.</p>" }}
        />
        {release.notesLanguages.length > 0 ? (
          <p className="mt-3 text-sm text-slate-400">
            {`Also in: ${release.notesLanguages.join(", ")} (Sparkle shows the Mac's language).`}
          </p>
        ) : null}
      </AdminSection>
    </AdminPage>
  );
}
