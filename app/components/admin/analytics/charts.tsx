/**
 * Charts drawn on the server as SVG and plain boxes: they are in the first HTML, need no script
 * and never shift the page. Every chart repeats numbers a table beside it gives exactly, so the
 * chart is an image with a one-line summary for screen readers.
 */

export interface Point {
  label: string;
  value: number;
}

/**
 * Columns over time (days or months); the tallest column fills the height. Labelled axes: the
 * vertical one names what is counted and runs from 0 to the tallest column, the horizontal one
 * names the time unit and shows the first and last period.
 */
export function ColumnChart({
  summary,
  points,
  xTitle,
  yTitle,
  formatValue = (value) => value.toLocaleString("en-IN"),
  height = 120,
}: {
  summary: string;
  points: readonly Point[];
  /** The horizontal axis: "Day", "Month". */
  xTitle: string;
  /** The vertical axis: what a column counts ("Visitors", "MRR (₹)"). */
  yTitle: string;
  formatValue?: (value: number) => string;
  height?: number;
}) {
  const max = Math.max(1, ...points.map((point) => point.value));
  const width = Math.max(points.length, 1) * 10;
  const first = points[0]?.label;
  const last = points.at(-1)?.label;
  return (
    <div>
      {/* The axes repeat what the summary and the table beside the chart say exactly. */}
      <p aria-hidden="true" className="mb-1 text-xs text-slate-300">
        {yTitle}
      </p>
      <div className="flex gap-2">
        <div
          aria-hidden="true"
          className="flex h-32 w-14 shrink-0 flex-col justify-between border-r border-slate-700 pr-1 text-right text-xs text-slate-400 tabular-nums"
        >
          <span>{formatValue(max)}</span>
          <span>{formatValue(0)}</span>
        </div>
        <svg
          role="img"
          aria-label={summary}
          viewBox={`0 0 ${width} ${height}`}
          preserveAspectRatio="none"
          className="h-32 w-full min-w-0 rounded bg-slate-950"
        >
          {points.map((point, index) => {
            const barHeight = (point.value / max) * (height - 4);
            return (
              <rect
                key={point.label}
                x={index * 10 + 1.5}
                y={height - barHeight}
                width={7}
                height={barHeight}
                className="fill-green-500"
              >
                <title>{`${point.label}: ${formatValue(point.value)}`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <div
        aria-hidden="true"
        className="ml-16 mt-1 flex justify-between gap-2 text-xs text-slate-400"
      >
        <span>{first}</span>
        <span className="text-slate-300">{xTitle}</span>
        <span>{points.length > 1 ? last : ""}</span>
      </div>
    </div>
  );
}

/** Horizontal bars as shares of the first (a funnel). */
export function FunnelBars({ summary, points }: { summary: string; points: readonly Point[] }) {
  const first = Math.max(1, points[0]?.value ?? 0);
  return (
    <div role="img" aria-label={summary} className="space-y-2">
      {points.map((point) => (
        <div key={point.label} className="flex items-center gap-3 text-sm">
          <span aria-hidden="true" className="w-32 shrink-0 text-slate-300">
            {point.label}
          </span>
          {/* An SVG, not a styled box: the CSP allows no inline styles. */}
          <svg
            aria-hidden="true"
            viewBox="0 0 100 10"
            preserveAspectRatio="none"
            className="h-5 w-full min-w-0 flex-1 rounded bg-slate-950"
          >
            <rect
              width={Math.min(100, (point.value / first) * 100)}
              height={10}
              className="fill-green-500"
            />
          </svg>
          <span aria-hidden="true" className="w-16 shrink-0 text-right tabular-nums text-white">
            {point.value.toLocaleString("en-IN")}
          </span>
        </div>
      ))}
    </div>
  );
}

/** A share as a percentage with one decimal; a dash when there is nothing to divide by. */
export function percent(ratio: number | null): string {
  return ratio === null ? "—" : `${(ratio * 100).toFixed(1)}%`;
}
