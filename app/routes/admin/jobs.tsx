import { Form } from "react-router";
import { countOf } from "~/lib/format";
import { z } from "zod";
import { LANES } from "~/.server/jobs/define";
import { queueOverview, settleDeadJob, STALE_QUEUE_MINUTES } from "~/.server/admin/jobs.server";
import { requireAdmin } from "~/.server/auth/session";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { kickJobs } from "~/.server/jobs/kick";
import { AdminPage, AdminSection, Stat, TD, AdminTable } from "~/components/admin/AdminUi";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/jobs";

export const meta: Route.MetaFunction = () =>
  pageMeta("Jobs", "Background work by lane: due, running, retrying and dead jobs.");

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const now = new Date();
  const { lanes, jobs } = await queueOverview(undefined, now);
  return {
    staleAfterMinutes: STALE_QUEUE_MINUTES,
    lanes: lanes.map((lane) => ({
      ...lane,
      label: LANES[lane.lane].label,
      slots: LANES[lane.lane].slots,
      waitingMinutes: lane.oldestDueAt
        ? Math.floor((now.getTime() - lane.oldestDueAt.getTime()) / 60_000)
        : null,
    })),
    jobs: jobs.map((job) => ({
      ...job,
      runAt: job.runAt.toISOString(),
      createdAt: job.createdAt.toISOString(),
      failedAt: job.failedAt?.toISOString() ?? null,
    })),
  };
}

const schema = z.object({
  intent: z.enum(["retry", "discard"]),
  id: z.coerce.number().int().positive(),
});

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    schema,
    async ({ intent, id }, session) => {
      const settled = await settleDeadJob(session, id, intent);
      if (!settled)
        return refuse(intent, `Job ${id} is not a dead job (already retried or discarded).`, 404);
      if (intent === "retry") {
        kickJobs();
        return done(intent, `Job ${id} (${settled.kind}) will run again now.`);
      }
      return done(intent, `Job ${id} (${settled.kind}) was discarded.`);
    },
    { role: "admin" },
  );
}

const STATE_LABELS = {
  due: "Due",
  running: "Running",
  retrying: "Waiting to retry",
  dead: "Dead",
} as const;

export default function AdminJobsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { lanes, jobs, staleAfterMinutes } = loaderData;
  return (
    <AdminPage>
      <PageHeader
        title="Jobs"
        lead="Webhooks, resyncs, invoices and mail run in the background, each lane with its own slots. A dead job has used all its attempts."
      />
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}
      {lanes.map((lane) => (
        <AdminSection key={lane.lane} id={`lane-${lane.lane}`} title={lane.label}>
          {lane.waitingMinutes !== null && lane.waitingMinutes >= staleAfterMinutes ? (
            <p role="alert" className="mb-4 text-sm text-amber-200">
              {`The oldest due job has waited ${countOf(lane.waitingMinutes, "minute")}: this lane is stuck or too slow.`}
            </p>
          ) : null}
          <dl className="grid gap-4 sm:grid-cols-4">
            <Stat label="Due" value={lane.due} />
            <Stat label={`Running (of ${countOf(lane.slots, "slot")})`} value={lane.running} />
            <Stat label="Waiting to retry" value={lane.retrying} />
            <Stat label="Dead" value={lane.dead} />
          </dl>
          <JobTable
            label={`Jobs in ${lane.label}`}
            jobs={jobs.filter((job) => job.lane === lane.lane)}
          />
        </AdminSection>
      ))}
    </AdminPage>
  );
}

type JobItem = Route.ComponentProps["loaderData"]["jobs"][number];

function JobTable({ label, jobs }: { label: string; jobs: JobItem[] }) {
  if (jobs.length === 0) return <p className="mt-4 text-slate-300">Nothing waiting.</p>;
  return (
    <AdminTable
      caption={`${label}`}
      className="mt-4"
      columns={["Job", "State", "Attempts", "Next run", "Last error", ""]}
    >
      {jobs.map((job) => (
        <tr key={job.id} className="border-b border-slate-800">
          <td className={TD}>{`${job.id} · ${job.kind}`}</td>
          <td className={TD}>{STATE_LABELS[job.state]}</td>
          <td className={TD}>{`${job.attempts} of ${job.maxAttempts}`}</td>
          <td className={TD}>{job.state === "dead" ? "—" : formatDateTime(job.runAt)}</td>
          <td className={`${TD} max-w-md break-words`}>{job.lastError ?? "—"}</td>
          <td className={TD}>
            {job.state === "dead" ? (
              <div className="flex gap-2">
                <DeadJobButton id={job.id} intent="retry" label="Retry" />
                <DeadJobButton id={job.id} intent="discard" label="Discard" />
              </div>
            ) : null}
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}

/** One form a button: works before and without scripts. */
function DeadJobButton({
  id,
  intent,
  label,
}: {
  id: number;
  intent: "retry" | "discard";
  label: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        className="btn-secondary"
        aria-label={`${label} job ${id}`}
      >
        {label}
      </button>
    </Form>
  );
}
