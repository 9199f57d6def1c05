import { data, Link, redirect, useSearchParams } from "react-router";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import { formAction } from "~/.server/forms/action.server";
import { THREAD_PAGE_SIZE, threadPageOf } from "~/.server/support/thread.server";
import { customerTicket, replyAsCustomer } from "~/.server/support/tickets.server";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Section } from "~/components/Section";
import { MessageForm } from "~/components/support/MessageForm";
import { Thread, ThreadPager } from "~/components/support/Thread";
import { formatDate, formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import {
  CUSTOMER_STATUS_LABELS,
  REPLY_WITHIN_HOURS,
  TICKET_CATEGORY_LABELS,
  ticketMessageSchema,
  ticketRef,
} from "~/lib/support";
import type { Route } from "./+types/support-ticket";

export const meta: Route.MetaFunction = ({ data: loaded }) =>
  pageMeta(
    loaded ? `Ticket ${ticketRef(loaded.ticket.number)}` : "Ticket",
    "Your support request and the team's replies.",
  );

/** A ticket number from the URL, or null for anything that is not one. */
function numberOf(param: string | undefined): number | null {
  return param && /^\d{1,9}$/.test(param) ? Number(param) : null;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const number = numberOf(params.number);
  // Someone else's ticket is as unknown as one that does not exist.
  const ticket =
    number === null
      ? null
      : await customerTicket(user.id, number, { page: threadPageOf(request.url) });
  if (!ticket) throw data({ message: "You have no ticket with this number." }, { status: 404 });
  return {
    ticket: {
      number: ticket.number,
      subject: ticket.subject,
      category: ticket.category,
      status: ticket.status,
      createdAt: ticket.createdAt.toISOString(),
      closedAt: ticket.closedAt?.toISOString() ?? null,
      invoiceNumber: ticket.invoiceNumber,
      deviceName: ticket.deviceName,
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
  };
}

const schema = ticketMessageSchema.extend({ intent: z.literal("reply") });

export async function action(args: Route.ActionArgs) {
  const number = numberOf(args.params.number);
  if (number === null)
    throw data({ message: "You have no ticket with this number." }, { status: 404 });
  return formAction(
    args,
    schema,
    async (input, session) => {
      const { reopened } = await replyAsCustomer(session, number, input.message);
      return redirect(`/account/support/${number}?${reopened ? "reopened" : "replied"}=1`);
    },
    { echo: ["message"] },
  );
}

function notice(params: URLSearchParams, number: number): string | null {
  if (params.has("opened"))
    return `Ticket ${ticketRef(number)} is open. We have mailed you a copy, and a person will reply within ${REPLY_WITHIN_HOURS} hours.`;
  if (params.has("reopened")) return "Your reply is sent, and the ticket is open again.";
  if (params.has("replied")) return "Your reply is sent.";
  return null;
}

export default function TicketPage({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const { ticket, messages, pager } = loaderData;
  const closed = ticket.status === "closed";
  const sent = notice(params, ticket.number);
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/account/support" className="link">
          All your requests
        </Link>
      </p>
      <PageHeader title={`${ticketRef(ticket.number)} ${ticket.subject}`}>
        <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm text-slate-300 sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-400">Status</dt>
          <dd>
            {CUSTOMER_STATUS_LABELS[ticket.status]}
            {ticket.closedAt ? ` on ${formatDateTime(ticket.closedAt)}` : ""}
          </dd>
          <dt className="text-slate-400">About</dt>
          <dd>{TICKET_CATEGORY_LABELS[ticket.category]}</dd>
          <dt className="text-slate-400">Opened</dt>
          <dd>{formatDate(ticket.createdAt, "long")}</dd>
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
      {sent ? <FormMessage tone="success" message={sent} /> : null}
      <ThreadPager path={`/account/support/${ticket.number}`} {...pager} />
      <Thread messages={messages} viewer="customer" />
      <Section id="reply-heading" title={closed ? "Not solved? Reply to open it again" : "Reply"}>
        <MessageForm
          intent="reply"
          label="Your reply"
          submitLabel={closed ? "Reply and reopen" : "Send reply"}
          answer={actionData ?? null}
          sentCount={pager.total}
        />
      </Section>
    </div>
  );
}
