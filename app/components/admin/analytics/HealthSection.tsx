import type { Health } from "~/.server/analytics/health.server";
import { AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { StuckLanesAlert } from "~/components/admin/StuckLanesAlert";
import { formatDate, formatDateTime } from "~/lib/dates";
import { isPlatform, PLATFORMS } from "~/lib/platform";
import { ColumnChart } from "./charts";

/** Health as the page receives it: instants as ISO strings. */
export type HealthView = Omit<Health, "exceptions"> & {
  exceptions: (Omit<Health["exceptions"][number], "firstSeen" | "lastSeen"> & {
    firstSeen: string;
    lastSeen: string;
  })[];
};

const num = (value: number) => value.toLocaleString("en-IN");

export function HealthSection({
  health,
  laneLabels,
}: {
  health: HealthView;
  laneLabels: Record<string, string>;
}) {
  const peak = Math.max(0, ...health.devicesPerDay.map((day) => day.devices));
  return (
    <AdminSection
      id="health"
      title="Product health"
      lead="App versions in use, devices reporting usage, and the site's own JavaScript errors."
    >
      <StuckLanesAlert
        className="mb-4"
        lanes={health.stuckLanes.map((lane) => ({
          ...lane,
          label: laneLabels[lane.lane] ?? lane.lane,
        }))}
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <AdminTable
          caption="App versions in use"
          columns={[
            "Platform",
            "Version",
            { label: "Signed-in devices", alignRight: true },
            { label: "Update checks", alignRight: true },
          ]}
        >
          {health.versions.length === 0 ? (
            <tr>
              <td colSpan={4} className={`${TD} text-slate-400`}>
                No app has checked in.
              </td>
            </tr>
          ) : null}
          {health.versions.map((row) => (
            <tr key={`${row.platform}-${row.version}`} className={TR}>
              <th scope="row" className={`${TD} font-normal`}>
                {isPlatform(row.platform) ? PLATFORMS[row.platform].label : row.platform}
              </th>
              <td className={`${TD} font-mono text-xs`}>{row.version}</td>
              <td className={TD_NUM}>{num(row.devices)}</td>
              <td className={TD_NUM}>{num(row.updateChecks)}</td>
            </tr>
          ))}
        </AdminTable>
        <div>
          <h3 className="mb-2 text-sm font-medium text-slate-200">
            Devices reporting usage per day (most: {num(peak)})
          </h3>
          <ColumnChart
            summary={`Devices reporting usage per day; at most ${num(peak)} on one day.`}
            points={health.devicesPerDay.map((day) => ({
              label: formatDate(day.day),
              value: day.devices,
            }))}
            xTitle="Day"
            yTitle="Devices"
          />
          {health.features.length > 0 ? (
            <div className="mt-4">
              <AdminTable
                caption="Features used in the app"
                columns={["Feature", { label: "Uses", alignRight: true }]}
              >
                {health.features.map((row) => (
                  <tr key={row.feature} className={TR}>
                    <th scope="row" className={`${TD} font-normal`}>
                      {row.feature}
                    </th>
                    <td className={TD_NUM}>{num(row.uses)}</td>
                  </tr>
                ))}
              </AdminTable>
            </div>
          ) : null}
        </div>
      </div>
      <div className="mt-6">
        <AdminTable
          caption="JavaScript errors on the site"
          columns={[
            "Error",
            "Where",
            { label: "Count", alignRight: true },
            "First seen",
            "Last seen",
          ]}
        >
          {health.exceptions.length === 0 ? (
            <tr>
              <td colSpan={5} className={`${TD} text-slate-400`}>
                No errors reported in this period.
              </td>
            </tr>
          ) : null}
          {health.exceptions.map((row) => (
            <tr key={`${row.type}-${row.location}`} className={TR}>
              <th scope="row" className={`${TD} font-normal`}>
                {row.type}
              </th>
              <td className={`${TD} break-all font-mono text-xs`}>{row.location}</td>
              <td className={TD_NUM}>{num(row.count)}</td>
              <td className={`${TD} whitespace-nowrap`}>{formatDateTime(row.firstSeen)}</td>
              <td className={`${TD} whitespace-nowrap`}>{formatDateTime(row.lastSeen)}</td>
            </tr>
          ))}
        </AdminTable>
      </div>
    </AdminSection>
  );
}
