import { formatDate, formatDay } from "~/lib/dates";

export interface ChartDay {
  day: string;
  total: number;
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above a value: a round top for the scale. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= value) return step * magnitude;
  }
  return 10 * magnitude;
}

/** What the chart shows, in one sentence for people who cannot see it. */
export function describeUsage(days: readonly ChartDay[]): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return "No usage to show.";
  const total = days.reduce((sum, entry) => sum + entry.total, 0);
  const active = days.filter((entry) => entry.total > 0);
  const range = `${formatDay(first.day)} to ${formatDate(last.day)}`;
  if (total === 0) return `Usage per day, ${range}: no usage.`;
  const busiest = active.reduce((best, entry) => (entry.total > best.total ? entry : best));
  return (
    `Usage per day, ${range}: ${total.toLocaleString("en-IN")} in total on ` +
    `${active.length} ${active.length === 1 ? "day" : "days"}; the busiest day was ` +
    `${formatDay(busiest.day)} with ${busiest.total.toLocaleString("en-IN")}.`
  );
}

const BAR = 20;
const GAP = 4;
const LEFT = 44;
const TOP = 12;
const PLOT_HEIGHT = 160;
const BOTTOM = 28;

/**
 * Bars of total use per day. Sizes are SVG attributes and colours classes: the CSP forbids inline
 * styles. Screen readers get the summary sentence; the numbers are in the table below the chart.
 */
export function UsageChart({ days }: { days: readonly ChartDay[] }) {
  const top = niceCeiling(Math.max(0, ...days.map((entry) => entry.total)));
  const width = LEFT + days.length * BAR + 8;
  const height = TOP + PLOT_HEIGHT + BOTTOM;
  const baseline = TOP + PLOT_HEIGHT;
  const labelEvery = Math.max(1, Math.ceil(days.length / 6));

  return (
    <figure>
      <svg
        role="img"
        aria-label={describeUsage(days)}
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        preserveAspectRatio="xMidYMid meet"
      >
        {[top, top / 2].map((value) => {
          const y = baseline - (value / top) * PLOT_HEIGHT;
          return (
            <g key={value}>
              <line
                x1={LEFT}
                x2={width - 4}
                y1={y}
                y2={y}
                className="stroke-slate-700"
                strokeDasharray="3 3"
              />
              <text
                x={LEFT - 6}
                y={y + 4}
                textAnchor="end"
                fontSize={11}
                className="fill-slate-300"
              >
                {Number.isInteger(value) ? value.toLocaleString("en-IN") : ""}
              </text>
            </g>
          );
        })}
        <line x1={LEFT} x2={width - 4} y1={baseline} y2={baseline} className="stroke-slate-500" />
        {days.map((entry, index) => {
          const barHeight = entry.total === 0 ? 0 : Math.max(2, (entry.total / top) * PLOT_HEIGHT);
          const x = LEFT + index * BAR + GAP / 2;
          const isLast = index === days.length - 1;
          return (
            <g key={entry.day}>
              {barHeight > 0 ? (
                <rect
                  x={x}
                  y={baseline - barHeight}
                  width={BAR - GAP}
                  height={barHeight}
                  rx={2}
                  className="fill-green-500"
                >
                  <title>{`${formatDay(entry.day)}: ${entry.total.toLocaleString("en-IN")}`}</title>
                </rect>
              ) : null}
              {index % labelEvery === 0 || isLast ? (
                <text
                  x={x + (BAR - GAP) / 2}
                  y={baseline + 18}
                  textAnchor="middle"
                  fontSize={11}
                  className="fill-slate-300"
                >
                  {formatDay(entry.day)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <details className="mt-3 text-sm text-slate-300">
        <summary className="cursor-pointer text-slate-200">Show the numbers per day</summary>
        <table className="mt-2 w-full max-w-sm text-left">
          <caption className="sr-only">Total usage per day</caption>
          <thead>
            <tr className="border-b border-slate-800 text-slate-300">
              <th scope="col" className="py-1 pr-4 font-medium">
                Day
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((entry) => (
              <tr key={entry.day} className="border-b border-slate-800/60">
                <th scope="row" className="py-1 pr-4 font-normal">
                  {formatDate(entry.day)}
                </th>
                <td className="py-1 text-right tabular-nums">
                  {entry.total.toLocaleString("en-IN")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
