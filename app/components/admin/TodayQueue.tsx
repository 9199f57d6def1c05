import { Link } from "react-router";
import { customerPagePath, disputePagePath } from "~/lib/admin-paths";
import { disputeStatusWords } from "~/lib/disputes";
import { formatDateTime } from "~/lib/dates";
import { countOf } from "~/lib/format";
import { type Currency, formatMoney, formatProviderMoney } from "~/lib/money";
import { REPLY_WITHIN_HOURS, ticketRef } from "~/lib/support";
import { AdminSection } from "./AdminUi";

export interface TodayQueueData {
  dunning: {
    subscriptionId: string;
    email: string | null;
    plan: string;
    nextRetryAt: string | null;
    failedAttempts: number;
  }[];
  failedToday: {
    paymentId: string;
    email: string | null;
    amountPaise: number;
    currency: Currency;
    error: string | null;
    at: string;
  }[];
  waiting: {
    number: number;
    subject: string;
    email: string;
    createdAt: string;
    overdue: boolean;
  }[];
  waitingTotal: number;
  refundRequests: { number: number; subject: string; email: string; createdAt: string }[];
  disputes: {
    disputeId: string;
    email: string | null;
    amountMinor: number;
    currency: string;
    respondBy: string | null;
    status: string;
  }[];
  deadJobs: number;
}

/** A customer's address, linked to their page (or said to be gone). */
function CustomerLink({ email }: { email: string | null }) {
  if (!email) return <span className="text-slate-400">deleted account</span>;
  return (
    <Link to={customerPagePath(email)} className="link break-all">
      {email}
    </Link>
  );
}

/**
 * What needs the operator today (issue 33, point 4), each row linked to its customer. Empty
 * lists say so: "nothing to do" is an answer too.
 */
export function TodayQueue({ queue }: { queue: TodayQueueData }) {
  const nothing =
    queue.dunning.length +
      queue.failedToday.length +
      queue.waitingTotal +
      queue.refundRequests.length +
      queue.disputes.length +
      queue.deadJobs ===
    0;
  return (
    <AdminSection id="today-heading" title="Today">
      {nothing ? (
        <p className="text-slate-300">
          Nothing waits for you: no renewal is failing, no ticket waits, no job is dead.
        </p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <QueueList
            id="today-dunning"
            title={`Renewals failing (${queue.dunning.length})`}
            empty="No subscription is in dunning."
          >
            {queue.dunning.map((row) => (
              <li key={row.subscriptionId}>
                <CustomerLink email={row.email} />{" "}
                <span className="text-slate-300">
                  · {row.plan} · {countOf(row.failedAttempts, "failed attempt")} ·{" "}
                  {row.nextRetryAt
                    ? `next retry ${formatDateTime(row.nextRetryAt)}`
                    : "no retry scheduled"}
                </span>
              </li>
            ))}
          </QueueList>
          <QueueList
            id="today-failed"
            title={`Payments failed today (${queue.failedToday.length})`}
            empty="No payment failed today."
          >
            {queue.failedToday.map((row) => (
              <li key={row.paymentId}>
                <CustomerLink email={row.email} />{" "}
                <span className="text-slate-300">
                  · {formatMoney(row.amountPaise, row.currency)} at {formatDateTime(row.at)}
                  {row.error ? ` · ${row.error}` : ""}
                </span>
              </li>
            ))}
          </QueueList>
          <QueueList
            id="today-tickets"
            title={`Tickets waiting for us (${queue.waitingTotal})`}
            empty="No ticket waits for a reply."
            more={
              queue.waitingTotal > queue.waiting.length
                ? { to: "/admin/support", label: "All waiting tickets" }
                : undefined
            }
          >
            {queue.waiting.map((row) => (
              <li key={row.number}>
                <Link to={`/admin/support/${row.number}`} className="link break-words">
                  {ticketRef(row.number)} {row.subject}
                </Link>{" "}
                <span className="text-slate-300">
                  · <CustomerLink email={row.email} /> · opened {formatDateTime(row.createdAt)}
                </span>
                {row.overdue ? (
                  <span className="block text-xs font-medium text-amber-200">
                    Overdue: no reply after {REPLY_WITHIN_HOURS} h
                  </span>
                ) : null}
              </li>
            ))}
          </QueueList>
          <QueueList
            id="today-refunds"
            title={`Refund requests (${queue.refundRequests.length})`}
            empty="No open refund request."
          >
            {queue.refundRequests.map((row) => (
              <li key={row.number}>
                <Link to={`/admin/support/${row.number}`} className="link break-words">
                  {ticketRef(row.number)} {row.subject}
                </Link>{" "}
                <span className="text-slate-300">
                  · <CustomerLink email={row.email} />
                </span>
              </li>
            ))}
          </QueueList>
          <QueueList
            id="today-disputes"
            title={`Disputes waiting for evidence (${queue.disputes.length})`}
            empty="No payment is disputed."
          >
            {queue.disputes.map((row) => (
              <li key={row.disputeId}>
                <Link to={disputePagePath(row.disputeId)} className="link">
                  {`Dispute of ${formatProviderMoney(row.amountMinor, row.currency)}`}
                </Link>{" "}
                <span className="text-slate-300">
                  · <CustomerLink email={row.email} /> ·{" "}
                  {row.respondBy
                    ? `evidence due ${formatDateTime(row.respondBy)}`
                    : "no deadline given"}
                  {` · ${disputeStatusWords(row.status)}`}
                </span>
              </li>
            ))}
          </QueueList>
          <div>
            <h3 className="text-sm font-semibold text-white">Dead jobs ({queue.deadJobs})</h3>
            <p className="mt-2 text-sm text-slate-300">
              {queue.deadJobs === 0 ? (
                "No background job has failed for good."
              ) : (
                <Link to="/admin/jobs" className="link">
                  {countOf(queue.deadJobs, "dead job")}: retry or discard on the Jobs page
                </Link>
              )}
            </p>
          </div>
        </div>
      )}
    </AdminSection>
  );
}

function QueueList({
  id,
  title,
  empty,
  more,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  more?: { to: string; label: string };
  children: React.ReactNode[];
}) {
  return (
    <div>
      <h3 id={id} className="text-sm font-semibold text-white">
        {title}
      </h3>
      {children.length === 0 ? (
        <p className="mt-2 text-sm text-slate-300">{empty}</p>
      ) : (
        <ul aria-labelledby={id} className="mt-2 space-y-2 text-sm">
          {children}
        </ul>
      )}
      {more ? (
        <p className="mt-2 text-sm">
          <Link to={more.to} className="link">
            {more.label}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
