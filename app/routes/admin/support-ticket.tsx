import { data, Form, Link } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { z } from "zod";
import { requireAdmin } from "~/.server/auth/session";
import { done, formAction } from "~/.server/forms/action.server";
import {
  addInternalNote,
  assignTicket,
  closeTicket,
  deskAssignees,
  deskTicket,
  reopenTicket,
  replyAsTeam,
} from "~/.server/support/desk.server";
import { THREAD_PAGE_SIZE, threadPageOf } from "~/.server/support/thread.server";
import { answerFor } from "~/components/account/form-answer";
import { AdminPage, AdminSection } from "~/components/admin/AdminUi";
import { FormMessage, SelectField } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { MessageForm } from "~/components/support/MessageForm";
import { Thread, ThreadPager } from "~/components/support/Thread";
import { formatDateTime } from "~/lib/dates";
import { customerPageById } from "~/lib/admin-paths";
import { pageMeta } from "~/lib/meta";
import {
  ageOf,
  REPLY_WITHIN_HOURS,
  RESOLVE_WITHIN_DAYS,
  TEAM_STATUS_LABELS,
  TICKET_CATEGORY_LABELS,
  ticketMessageSchema,
  ticketRef,
} from "~/lib/support";
import type { Route } from "./+types/support-ticket";

export const meta: Route.MetaFunction = ({ data: loaded }) =>
  pageMeta(loaded ? `Ticket ${ticketRef(loaded.ticket.number)}` : "Ticket", "A customer's ticket.");

function numberOf(param: string | undefined): number | null {
  return param && /^\d{1,9}$/.test(param) ? Number(param) : null;
}

const NOT_FOUND = { message: "There is no ticket with this number." };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const session = requireAdmin(context);
  const number = numberOf(params.number);
  const now = new Date();
  const [ticket, assignees] = await Promise.all([
    number === null ? null : deskTicket(session, number, { now, page: threadPageOf(request.url) }),
    deskAssignees(),
  ]);
  if (!ticket) throw data(NOT_FOUND, { status: 404 });
  return {
    ticket: {
      number: ticket.number,
      subject: ticket.subject,
      category: ticket.category,
      status: ticket.status,
      age: ageOf(ticket.createdAt, now),
      createdAt: ticket.createdAt.toISOString(),
      firstReplyAt: ticket.firstReplyAt?.toISOString() ?? null,
      closedAt: ticket.closedAt?.toISOString() ?? null,
      replyDueAt: ticket.replyDueAt.toISOString(),
      replyOverdue: ticket.replyOverdue,
      resolveBy: ticket.resolveBy.toISOString(),
      resolutionOverdue: ticket.resolutionOverdue,
      assigneeId: ticket.assigneeId,
      invoiceNumber: ticket.invoiceNumber,
      deviceName: ticket.deviceName,
      customer: ticket.customer,
    },
    messages: ticket.thread.messages.map((message) => ({
      ...message,
      createdAt: message.createdAt.toISOString(),
    })),
    pager: {
      page: ticket.thread.page,
      pages: ticket.thread.pages,
      total: ticket.thread.total,
      pageSize: THREAD_PAGE_SIZE,
    },
    assignees,
  };
}

const schema = z.discriminatedUnion("intent", [
  ticketMessageSchema.extend({ intent: z.literal("reply") }),
  ticketMessageSchema.extend({ intent: z.literal("note") }),
  z.object({
    intent: z.literal("assign"),
    assigneeId: z
      .string()
      .transform((value) => (value === "" ? null : value))
      .nullable(),
  }),
  z.object({ intent: z.literal("close") }),
  z.object({ intent: z.literal("reopen") }),
]);

export async function action(args: Route.ActionArgs) {
  const number = numberOf(args.params.number);
  if (number === null) throw data(NOT_FOUND, { status: 404 });
  const ref = ticketRef(number);
  return formAction(
    args,
    schema,
    async (input, session) => {
      switch (input.intent) {
        case "reply":
          await replyAsTeam(session, number, input.message);
          return done(
            input.intent,
            `Reply sent: the customer is mailed, and ${ref} now waits for them.`,
          );
        case "note":
          await addInternalNote(session, number, input.message);
          return done(input.intent, "Note added. Only the team sees it.");
        case "assign": {
          const name = await assignTicket(session, number, input.assigneeId);
          return done(input.intent, `${ref} is assigned to ${name}.`);
        }
        case "close":
          await closeTicket(session, number);
          return done(
            input.intent,
            `${ref} is closed; the customer is mailed and can reopen it by replying.`,
          );
        case "reopen":
          await reopenTicket(session, number);
          return done(input.intent, `${ref} is open again and waits for the team.`);
      }
    },
    { role: "admin", echo: ["message"] },
  );
}

export default function AdminTicketPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = usePendingForms();
  const { ticket, messages, pager, assignees } = loaderData;
  const reply = answerFor(actionData, "reply");
  const note = answerFor(actionData, "note");
  const state = answerFor(actionData, "assign", "close", "reopen");
  const closed = ticket.status === "closed";
  return (
    <AdminPage>
      <p className="text-sm">
        <Link to="/admin/support" className="link">
          All tickets
        </Link>
      </p>
      <PageHeader title={`${ticketRef(ticket.number)} ${ticket.subject}`}>
        <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm text-slate-300 sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-400">Customer</dt>
          <dd className="break-all">
            <Link className="link" to={customerPageById(ticket.customer.id)}>
              {ticket.customer.name
                ? `${ticket.customer.name} <${ticket.customer.email}>`
                : ticket.customer.email}
            </Link>
          </dd>
          <dt className="text-slate-400">Status</dt>
          <dd>{TEAM_STATUS_LABELS[ticket.status]}</dd>
          <dt className="text-slate-400">About</dt>
          <dd>{TICKET_CATEGORY_LABELS[ticket.category]}</dd>
          <dt className="text-slate-400">Opened</dt>
          <dd>
            {formatDateTime(ticket.createdAt)} ({ticket.age} ago)
          </dd>
          <dt className="text-slate-400">First reply</dt>
          <dd className={ticket.replyOverdue ? "font-medium text-amber-200" : undefined}>
            {ticket.firstReplyAt
              ? formatDateTime(ticket.firstReplyAt)
              : ticket.replyOverdue
                ? `Overdue since ${formatDateTime(ticket.replyDueAt)} (${REPLY_WITHIN_HOURS} h)`
                : `Due by ${formatDateTime(ticket.replyDueAt)}`}
          </dd>
          <dt className="text-slate-400">Resolution</dt>
          <dd className={ticket.resolutionOverdue ? "font-medium text-amber-200" : undefined}>
            {ticket.closedAt
              ? `Closed ${formatDateTime(ticket.closedAt)}`
              : ticket.resolutionOverdue
                ? `Overdue since ${formatDateTime(ticket.resolveBy)} (${RESOLVE_WITHIN_DAYS} days)`
                : `Due by ${formatDateTime(ticket.resolveBy)}`}
          </dd>
          {ticket.invoiceNumber ? (
            <>
              <dt className="text-slate-400">Invoice</dt>
              <dd>{ticket.invoiceNumber}</dd>
            </>
          ) : null}
          {ticket.deviceName ? (
            <>
              <dt className="text-slate-400">Device</dt>
              <dd className="break-words">{ticket.deviceName}</dd>
            </>
          ) : null}
        </dl>
      </PageHeader>
      {state?.message ? (
        <FormMessage tone={state.ok ? "success" : "error"} message={state.message} />
      ) : null}
      <AdminSection id="ticket-state-heading" title="Assignment and state">
        <div className="flex flex-wrap items-end gap-4">
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="assign" />
            <SelectField
              label="Assigned to"
              name="assigneeId"
              defaultValue={ticket.assigneeId ?? ""}
              errors={state?.errors?.assigneeId}
              className="min-w-56"
            >
              <option value="">Nobody</option>
              {assignees.map((admin) => (
                <option key={admin.id} value={admin.id}>
                  {admin.name}
                </option>
              ))}
            </SelectField>
            <button
              type="submit"
              className="btn-secondary mb-6"
              disabled={pending({ intent: "assign" })}
            >
              Assign
            </button>
          </Form>
          <Form method="post" className="mb-6">
            <input type="hidden" name="intent" value={closed ? "reopen" : "close"} />
            <button
              type="submit"
              className="btn-secondary"
              disabled={pending({ intent: ["close", "reopen"] })}
            >
              {closed ? "Reopen ticket" : "Close ticket"}
            </button>
          </Form>
        </div>
      </AdminSection>
      <ThreadPager path={`/admin/support/${ticket.number}`} {...pager} />
      <Thread messages={messages} viewer="team" />
      <AdminSection id="reply-heading" title="Reply to the customer">
        <MessageForm
          intent="reply"
          label="Reply"
          hint="Mailed to the customer and shown on their ticket."
          submitLabel="Send reply"
          answer={reply}
          sentCount={pager.total}
        />
      </AdminSection>
      <AdminSection id="note-heading" title="Internal note">
        <MessageForm
          intent="note"
          label="Note"
          hint="Only the team sees notes; the customer is not mailed."
          submitLabel="Add note"
          answer={note}
          sentCount={pager.total}
          primary={false}
        />
      </AdminSection>
    </AdminPage>
  );
}
