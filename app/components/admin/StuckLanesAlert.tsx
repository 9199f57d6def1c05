import { Link } from "react-router";
import { countOf } from "~/lib/format";

/** The job-queue warning (docs/decisions/0029): a lane whose oldest due job has waited too long. */
export function StuckLanesAlert({
  lanes,
  className = "",
}: {
  lanes: readonly { lane: string; label: string; minutes: number }[];
  className?: string;
}) {
  if (lanes.length === 0) return null;
  return (
    <div
      role="alert"
      className={`rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm text-amber-100 ${className}`}
    >
      {lanes.map((lane) => (
        <p key={lane.lane}>
          {`Background jobs are waiting: the oldest in "${lane.label}" has waited ${countOf(lane.minutes, "minute")}. `}
          <Link to="/admin/jobs" className="font-medium text-white underline">
            See the jobs
          </Link>
        </p>
      ))}
    </div>
  );
}
