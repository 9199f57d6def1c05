import { Link } from "react-router";
import { USAGE_DAYS, usageReport } from "~/.server/account/usage.server";
import { requireSession } from "~/.server/auth/session";
import { formatDateTime } from "~/lib/dates";
import { countOf } from "~/lib/format";
import { UsageChart } from "~/components/account/UsageChart";
import { PageHeader } from "~/components/PageHeader";
import { isPlatform, PLATFORMS } from "~/lib/platform";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/usage";
import { Section } from "~/components/Section";
import { ScrollBox } from "~/components/ScrollBox";

export const meta: Route.MetaFunction = () =>
  pageMeta("Usage", "How you use the app, per device and per day.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  return { days: USAGE_DAYS, report: await usageReport(user.id) };
}

function platformLabel(platform: string): string {
  return isPlatform(platform) ? PLATFORMS[platform].label : platform;
}

export default function UsagePage({ loaderData }: Route.ComponentProps) {
  const { days, report } = loaderData;
  const empty = report.total === 0;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Usage"
        lead={`What the desktop app reported over the last ${days} days, in India time.`}
      />

      {empty ? (
        <p className="rounded-xl border border-slate-800 bg-slate-900 p-6 text-slate-300">
          Usage appears here once the desktop app is signed in and used.{" "}
          <Link to="/download" className="link">
            Download the app
          </Link>
        </p>
      ) : (
        <>
          <Section id="usage-per-day" title="Per day">
            <UsageChart days={report.days} />
          </Section>

          <Section id="usage-per-device" title="Per device">
            <ScrollBox label={`Usage per device and feature over the last ${days} days`}>
              <table className="w-full text-left text-sm">
                <caption className="sr-only">
                  Usage per device and feature over the last {days} days
                </caption>
                <thead>
                  <tr className="border-b border-slate-800 text-slate-300">
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Device
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Platform
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Feature
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">
                      Total
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      Last used
                    </th>
                  </tr>
                </thead>
                <tbody className="text-slate-200">
                  {report.perDevice.map((row) => (
                    <tr
                      key={`${row.deviceId}:${row.feature}`}
                      className="border-b border-slate-800"
                    >
                      <th scope="row" className="py-2 pr-4 font-medium text-white">
                        {row.deviceName}
                      </th>
                      <td className="py-2 pr-4">{platformLabel(row.platform)}</td>
                      <td className="py-2 pr-4 font-mono text-xs">{row.feature}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">
                        {row.total.toLocaleString("en-IN")}
                      </td>
                      <td className="py-2">
                        <time dateTime={row.lastUsedAt}>{formatDateTime(row.lastUsedAt)}</time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollBox>
          </Section>
        </>
      )}

      {report.versions.length > 0 ? (
        <Section id="usage-versions" title="App versions in use">
          <ul className="divide-y divide-slate-800">
            {report.versions.map((version) => (
              <li key={version.version} className="py-3">
                <p className="font-medium text-white">Version {version.version}</p>
                <p className="text-sm text-slate-300">
                  {version.devices.length > 0
                    ? `Signed in on ${version.devices.join(", ")}`
                    : "No signed-in device runs it now"}
                  {` · ${countOf(version.total, "use")} in the last ${days} days`}
                </p>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </div>
  );
}
