import { Link } from "react-router";
import { detectPlatform, type Platform, PLATFORMS } from "~/lib/platform";
import { renderReleaseNotes } from "~/.server/releases/notes.server";
import { latestStableCached } from "~/.server/releases/queries.server";
import { installerFor } from "~/.server/releases/serve.server";
import { CopyableHash } from "~/components/CopyableHash";
import { site } from "~/config/site";
import { track } from "~/lib/analytics/client";
import { formatBytes } from "~/lib/format";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/download";
import { publicPlatformPageHeaders } from "~/lib/cache-control";
import { ScrollBox } from "~/components/ScrollBox";

export const meta: Route.MetaFunction = () =>
  pageMeta("Download", `Download ${site.product.name} for Mac (.dmg) or Windows (.exe).`);

/** The same for every visitor on one platform: cached and shared per platform. */
export const headers = publicPlatformPageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const detected = detectPlatform(request.headers);
  const release = await latestStableCached();
  return {
    detected,
    release: release
      ? {
          version: release.version,
          publishedAt: release.publishedAt.toISOString(),
          notesHtml: renderReleaseNotes(release.notes),
          assets: (Object.keys(PLATFORMS) as Platform[])
            .flatMap((platform) => installerFor(release, platform) ?? [])
            .map((asset) => ({
              platform: asset.platform as Platform,
              fileName: asset.fileName,
              size: asset.sizeBytes,
              sha256: asset.sha256,
            })),
        }
      : null,
  };
}

type Asset = NonNullable<Route.ComponentProps["loaderData"]["release"]>["assets"][number];

function DownloadButton({ asset, primary }: { asset: Asset; primary: boolean }) {
  const info = PLATFORMS[asset.platform];
  return (
    <a
      href={`/download/${asset.platform}`}
      download={asset.fileName}
      className={primary ? "btn-primary px-6 py-3 text-base" : "btn-secondary"}
      onClick={() =>
        track("app_download", { platform: asset.platform, file_extension: info.extension })
      }
    >
      Download for {asset.platform === "mac" ? "Mac" : "Windows"} (.{info.extension})
    </a>
  );
}

export default function DownloadPage({ loaderData }: Route.ComponentProps) {
  const { detected, release } = loaderData;
  const name = site.product.name;

  if (!release || release.assets.length === 0) {
    return (
      <div className="prose-page">
        <h1 className="text-3xl font-bold text-white">Download {name}</h1>
        <p className="mt-4 text-lg text-slate-300">
          No version of {name} has been published yet. Check back soon, or write to{" "}
          <a className="link" href={`mailto:${site.company.supportEmail}`}>
            {site.company.supportEmail}
          </a>{" "}
          to hear when it is ready.
        </p>
      </div>
    );
  }

  const primary = release.assets.find((asset) => asset.platform === detected);
  const others = release.assets.filter((asset) => asset !== primary);

  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight text-white">Download {name}</h1>
      <p className="mt-3 text-lg text-slate-300">
        Version {release.version}, released {formatDate(release.publishedAt)}.{" "}
        {detected === "other" ? `${name} runs on Mac and Windows.` : null}
      </p>

      <div className="mt-8 flex flex-col items-start gap-4">
        {primary ? <DownloadButton asset={primary} primary /> : null}
        {others.length > 0 ? (
          <div className="flex flex-wrap items-center gap-3">
            {primary ? <span className="text-sm text-slate-400">Also available:</span> : null}
            {others.map((asset) => (
              <DownloadButton key={asset.platform} asset={asset} primary={!primary} />
            ))}
          </div>
        ) : null}
      </div>

      <section aria-labelledby="files" className="mt-12">
        <h2 id="files" className="text-xl font-semibold text-white">
          Files
        </h2>
        <ScrollBox
          label="Installers for each system"
          className="mt-4 rounded-xl border border-slate-800"
        >
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-900 text-slate-200">
              <tr>
                <th scope="col" className="px-4 py-3">
                  System
                </th>
                <th scope="col" className="px-4 py-3">
                  File
                </th>
                <th scope="col" className="px-4 py-3">
                  Size
                </th>
                <th scope="col" className="px-4 py-3">
                  SHA-256
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-800 text-slate-300">
              {release.assets.map((asset) => (
                <tr key={asset.platform}>
                  <th scope="row" className="px-4 py-3 font-normal text-slate-200">
                    {PLATFORMS[asset.platform].label}
                  </th>
                  <td className="px-4 py-3 font-mono text-xs">{asset.fileName}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{formatBytes(asset.size)}</td>
                  <td className="px-4 py-3">
                    <CopyableHash
                      value={asset.sha256}
                      label={`SHA-256 of the ${PLATFORMS[asset.platform].label} installer`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
        <p className="mt-3 text-sm text-slate-400">
          Looking for an earlier version?{" "}
          <Link className="link" to="/download/history">
            All releases
          </Link>
          .
        </p>
        <p className="mt-3 text-sm text-slate-400">
          Check a download with <code className="font-mono">shasum -a 256 &lt;file&gt;</code> (Mac)
          or <code className="font-mono">Get-FileHash &lt;file&gt;</code> (Windows).
        </p>
      </section>

      <section aria-labelledby="requirements" className="mt-12">
        <h2 id="requirements" className="text-xl font-semibold text-white">
          System requirements
        </h2>
        <ul className="mt-4 space-y-2 text-slate-300">
          {(Object.keys(PLATFORMS) as Platform[]).map((platform) => (
            <li key={platform}>
              <span className="font-semibold text-slate-100">{PLATFORMS[platform].label}:</span>{" "}
              {PLATFORMS[platform].requirements}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="sign-in" className="mt-12">
        <h2 id="sign-in" className="text-xl font-semibold text-white">
          Sign in from the app
        </h2>
        <ol className="mt-4 list-decimal space-y-2 pl-5 text-slate-300">
          <li>Install {name} and open it.</li>
          <li>
            Choose <strong>Sign in</strong>: your browser opens this site (sign in here first if you
            are not).
          </li>
          <li>
            Check the device name it shows and press <strong>Connect</strong>: the app is signed in
            and your plan works in it, online and offline.
          </li>
        </ol>
      </section>

      <section aria-labelledby="notes" className="mt-12">
        <h2 id="notes" className="text-xl font-semibold text-white">
          What is new in {release.version}
        </h2>
        <div
          className="mt-4 space-y-3 text-slate-300 [&_a]:text-green-400 [&_a]:underline [&_code]:font-mono [&_ul]:list-disc [&_ul]:pl-6"
          dangerouslySetInnerHTML={{ __html: release.notesHtml }}
        />
      </section>
    </div>
  );
}
