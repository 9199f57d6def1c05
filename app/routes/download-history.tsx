import { Link } from "react-router";
import { renderReleaseNotes } from "~/.server/releases/notes.server";
import { listReleases } from "~/.server/releases/queries.server";
import { CopyableHash } from "~/components/CopyableHash";
import { site } from "~/config/site";
import { formatBytes } from "~/lib/format";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { PLATFORMS } from "~/lib/platform";
import type { Route } from "./+types/download-history";
import { publicPageHeaders } from "~/lib/cache-control";

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta("All releases", `Every published version of ${site.product.name}, with its notes.`);

export async function loader() {
  const releases = await listReleases(["published"]);
  return {
    releases: releases.map((release) => ({
      version: release.version,
      channel: release.channel,
      publishedAt: release.publishedAt.toISOString(),
      notesHtml: renderReleaseNotes(release.notes),
      installers: release.assets
        .filter((asset) => asset.kind === "installer")
        .map((asset) => ({
          platform: asset.platform,
          arch: asset.arch,
          fileName: asset.fileName,
          size: asset.sizeBytes,
          sha256: asset.sha256,
        })),
    })),
  };
}

export default function DownloadHistoryPage({ loaderData }: Route.ComponentProps) {
  const { releases } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight text-white">All releases</h1>
      <p className="mt-3 text-lg text-slate-300">
        Every version of {site.product.name}, newest first. Most people want{" "}
        <Link className="link" to="/download">
          the latest version
        </Link>
        .
      </p>
      {releases.length === 0 ? (
        <p className="mt-8 text-slate-300">No version has been published yet.</p>
      ) : (
        <ol className="mt-10 space-y-10">
          {releases.map((release) => (
            <li key={release.version} className="border-t border-slate-800 pt-6">
              <h2 className="text-2xl font-semibold text-white">
                {release.version}
                {release.channel === "beta" ? (
                  <span className="ml-3 rounded bg-amber-900/60 px-2 py-0.5 align-middle text-xs font-medium text-amber-200">
                    Beta
                  </span>
                ) : null}
              </h2>
              <p className="mt-1 text-sm text-slate-400">
                Released {formatDate(release.publishedAt)}
              </p>
              <div
                className="mt-4 space-y-3 text-slate-300 [&_a]:text-green-400 [&_a]:underline [&_ul]:list-disc [&_ul]:pl-6"
                dangerouslySetInnerHTML={{ __html: release.notesHtml }}
              />
              <ul className="mt-4 space-y-2 text-sm">
                {release.installers.map((installer) => (
                  <li key={installer.fileName} className="text-slate-300">
                    <a
                      className="link"
                      href={`/download/${installer.platform}/${release.version}`}
                      download={installer.fileName}
                    >
                      {installer.fileName}
                    </a>{" "}
                    ({PLATFORMS[installer.platform].label}, {formatBytes(installer.size)}) ·{" "}
                    <span className="text-xs text-slate-400">SHA-256</span>{" "}
                    <CopyableHash
                      value={installer.sha256}
                      label={`SHA-256 of ${installer.fileName}`}
                    />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
