import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface ReleaseChartsProps {
  downloads: { day: string; downloads: number }[];
  versions: { version: string; count: number; share: number }[];
}

const AXIS = { stroke: "#94a3b8", fontSize: 12 };
/** An axis's title: under the horizontal axis, or turned along the vertical one. */
const xTitle = (value: string) => ({
  value,
  position: "insideBottom" as const,
  offset: -2,
  fill: "#cbd5e1",
  fontSize: 12,
});
const yTitle = (value: string, offset?: number) => ({
  value,
  angle: -90,
  position: "insideLeft" as const,
  ...(offset === undefined ? {} : { offset }),
  fill: "#cbd5e1",
  fontSize: 12,
});
const TOOLTIP = {
  contentStyle: { background: "#0f172a", border: "1px solid #334155", color: "#e2e8f0" },
  cursor: { fill: "rgba(148, 163, 184, 0.1)" },
};

/**
 * Recharts draws after measuring in the browser, so this module is loaded lazily by the admin
 * dashboard only: public pages never download it. Its keyboard layer stays on (arrow keys walk the
 * bars with their tooltip); the table beside it carries the same numbers before it loads.
 */
export default function ReleaseCharts({ downloads, versions }: ReleaseChartsProps) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <figure>
        <figcaption className="mb-2 text-sm text-slate-300">Downloads per day, 30 days</figcaption>
        <div className="h-56">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={downloads} margin={{ top: 4, right: 8, bottom: 16, left: 0 }}>
              <CartesianGrid stroke="#1e293b" vertical={false} />
              <XAxis
                dataKey="day"
                tickFormatter={(day: string) => day.slice(8)}
                label={xTitle("Day of the month")}
                {...AXIS}
              />
              <YAxis allowDecimals={false} label={yTitle("Downloads", 20)} {...AXIS} />
              <Tooltip {...TOOLTIP} />
              <Bar dataKey="downloads" name="Downloads" fill="#22c55e" radius={[3, 3, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure>
        <figcaption className="mb-2 text-sm text-slate-300">
          App versions in use, 30 days
        </figcaption>
        <div className="h-56">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={versions.map((row) => ({ ...row, percent: Math.round(row.share * 1000) / 10 }))}
              layout="vertical"
              margin={{ top: 4, right: 16, bottom: 16, left: 8 }}
            >
              <CartesianGrid stroke="#1e293b" horizontal={false} />
              <XAxis
                type="number"
                unit="%"
                domain={[0, 100]}
                label={xTitle("Share of devices")}
                {...AXIS}
              />
              <YAxis
                type="category"
                dataKey="version"
                width={64}
                label={yTitle("Version")}
                {...AXIS}
              />
              <Tooltip {...TOOLTIP} />
              <Bar dataKey="percent" name="Share (%)" fill="#4ade80" radius={[0, 3, 3, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}
