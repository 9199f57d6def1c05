import { Form } from "react-router";
import type { FixSubscriptionView } from "~/.server/admin/fix-view.server";
import { AdminSection, ChoiceGroup, HiddenFields } from "~/components/admin/AdminUi";
import { TIMELINE_KIND_LABELS, TIMELINE_KINDS, TIMELINE_LIMIT } from "~/lib/customer-timeline";
import { formatDateTime } from "~/lib/dates";
import { countOf } from "~/lib/format";

/**
 * Everything that happened to the customer, newest first, with a filter by kind. The filter is a
 * GET form (it works without scripts and its address can be shared); `lookup` keeps the fields
 * of the address the page was opened at.
 */
export function TimelineSection({
  timeline,
  lookup,
}: {
  timeline: FixSubscriptionView["timeline"];
  lookup: Record<string, string>;
}) {
  const everything = timeline.kinds.length === TIMELINE_KINDS.length;
  return (
    <AdminSection
      id="timeline"
      title="Timeline"
      lead="Subscriptions, payments, documents, tickets, mails, devices, admin actions and key site events, newest first."
    >
      <Form method="get" className="space-y-3">
        <HiddenFields values={lookup} />
        <ChoiceGroup
          legend="Show"
          type="checkbox"
          inline
          options={TIMELINE_KINDS.map((kind) => ({
            name: "show",
            value: kind,
            label: TIMELINE_KIND_LABELS[kind],
            // Everything shown reads as no box ticked: ticking one narrows to it.
            checked: !everything && timeline.kinds.includes(kind),
          }))}
        />
        <button type="submit" className="btn-secondary">
          Filter
        </button>
      </Form>
      <p className="mt-4 text-sm text-slate-300" data-testid="timeline-count">
        {timeline.total === 0
          ? "Nothing to show."
          : timeline.total > TIMELINE_LIMIT
            ? `The newest ${TIMELINE_LIMIT} of ${timeline.total.toLocaleString("en-IN")} entries.`
            : `${countOf(timeline.total, "entry", "entries")}${everything ? "" : " of the kinds chosen"}.`}
      </p>
      {timeline.entries.length > 0 ? (
        <ol className="mt-3 divide-y divide-slate-800" aria-label="Timeline entries">
          {timeline.entries.map((entry, index) => (
            <li
              key={`${entry.at}-${index}`}
              className="grid gap-1 py-2 sm:grid-cols-[11rem_9rem_1fr] sm:gap-4"
              data-testid="timeline-entry"
              data-kind={entry.kind}
            >
              <time dateTime={entry.at} className="text-sm whitespace-nowrap text-slate-300">
                {formatDateTime(entry.at)}
              </time>
              <span className="text-xs text-slate-400 uppercase">
                {TIMELINE_KIND_LABELS[entry.kind]}
              </span>
              <div className="min-w-0 text-sm">
                <p className={entry.problem ? "font-medium text-red-300" : "text-slate-100"}>
                  {entry.problem ? <span className="sr-only">Problem: </span> : null}
                  {entry.title}
                </p>
                {entry.detail ? <p className="break-words text-slate-300">{entry.detail}</p> : null}
              </div>
            </li>
          ))}
        </ol>
      ) : null}
    </AdminSection>
  );
}
