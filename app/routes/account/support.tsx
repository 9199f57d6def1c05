import { Form, Link, redirect } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import { requireSession } from "~/.server/auth/session";
import { formAction } from "~/.server/forms/action.server";
import { customerTickets, openTicket, ticketChoices } from "~/.server/support/tickets.server";
import { FormMessage, SelectField, Field, TextAreaField } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Section } from "~/components/Section";
import { site } from "~/config/site";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import {
  CUSTOMER_STATUS_LABELS,
  openTicketSchema,
  REPLY_WITHIN_HOURS,
  RESOLVE_WITHIN_DAYS,
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  type TicketCategory,
  ticketRef,
} from "~/lib/support";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = () =>
  pageMeta("Support", "Ask the team for help and follow your requests.");

/**
 * Pages that send people here ("Still stuck?" on the billing pages) say what it is about:
 * `?category=billing&subject=…&invoice=<number>`. Anything unknown is ignored.
 */
function prefill(params: URLSearchParams, invoices: { id: string; number: string }[]) {
  const category = params.get("category");
  const invoice = params.get("invoice");
  return {
    category: (TICKET_CATEGORIES as readonly string[]).includes(category ?? "")
      ? (category as TicketCategory)
      : "",
    subject: (params.get("subject") ?? "").slice(0, 120),
    invoiceId: invoices.find((each) => each.number === invoice)?.id ?? "",
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const [tickets, choices] = await Promise.all([customerTickets(user.id), ticketChoices(user.id)]);
  return {
    tickets: tickets.map((ticket) => ({
      ...ticket,
      createdAt: ticket.createdAt.toISOString(),
      lastMessageAt: ticket.lastMessageAt.toISOString(),
    })),
    invoices: choices.invoices.map((each) => ({
      id: each.id,
      label: `${each.number} (${formatDate(each.issuedAt)})`,
      number: each.number,
    })),
    devices: choices.devices.map((each) => ({
      id: each.id,
      label: `${each.name} (${each.platform})`,
    })),
    prefill: prefill(new URL(request.url).searchParams, choices.invoices),
  };
}

const ECHO = ["category", "subject", "message", "invoiceId", "deviceId"] as const;

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    openTicketSchema,
    async (input, session) => {
      const { number } = await openTicket(session, input);
      // Post/redirect/get: a reload does not open the ticket twice.
      return redirect(`/account/support/${number}?opened=1`);
    },
    { echo: ECHO },
  );
}

export default function SupportPage({ loaderData, actionData }: Route.ComponentProps) {
  const sending = useFormPending({ intent: "open" });
  const { tickets, invoices, devices } = loaderData;
  const values = actionData?.values ?? loaderData.prefill;
  const errors = actionData?.errors ?? {};
  return (
    <div className="space-y-6">
      <PageHeader
        title="Support"
        lead={`Ask about billing, refunds, the app or your data. A person replies within ${REPLY_WITHIN_HOURS} hours, usually within one working day, and we resolve every request within ${RESOLVE_WITHIN_DAYS} days.`}
      />
      <Section id="tickets-heading" title="Your requests">
        {tickets.length === 0 ? (
          <p className="text-slate-300">You have not asked us anything yet.</p>
        ) : (
          <ul className="divide-y divide-slate-800">
            {tickets.map((ticket) => (
              <li key={ticket.number} className="py-3">
                <Link
                  to={`/account/support/${ticket.number}`}
                  className="link font-medium break-words"
                >
                  {ticketRef(ticket.number)} {ticket.subject}
                </Link>
                <p className="mt-1 text-sm text-slate-400">
                  {CUSTOMER_STATUS_LABELS[ticket.status]} ·{" "}
                  {TICKET_CATEGORY_LABELS[ticket.category]} · opened {formatDate(ticket.createdAt)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section id="new-ticket-heading" title="Ask for help">
        {actionData && !actionData.ok ? (
          <div className="mb-4">
            <FormMessage tone="error" message={actionData.message} />
          </div>
        ) : null}
        <Form method="post" className="max-w-xl space-y-2" noValidate>
          <input type="hidden" name="intent" value="open" />
          <SelectField
            label="What is it about?"
            name="category"
            required
            defaultValue={values.category}
            errors={errors.category}
          >
            <option value="" disabled>
              Choose one
            </option>
            {TICKET_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {TICKET_CATEGORY_LABELS[category]}
              </option>
            ))}
          </SelectField>
          <Field
            label="Subject"
            name="subject"
            required
            maxLength={120}
            defaultValue={values.subject}
            errors={errors.subject}
          />
          <TextAreaField
            label="Message"
            name="message"
            required
            minLength={10}
            maxLength={5000}
            defaultValue={"message" in values ? values.message : ""}
            hint="What happened, what you expected, and anything we should look at. Never send a password or card number."
            errors={errors.message}
          />
          {invoices.length > 0 ? (
            <SelectField
              label="Invoice (optional)"
              name="invoiceId"
              defaultValue={values.invoiceId}
              errors={errors.invoiceId}
            >
              <option value="">None</option>
              {invoices.map((invoice) => (
                <option key={invoice.id} value={invoice.id}>
                  {invoice.label}
                </option>
              ))}
            </SelectField>
          ) : null}
          {devices.length > 0 ? (
            <SelectField
              label="Device (optional)"
              name="deviceId"
              defaultValue={"deviceId" in values ? values.deviceId : ""}
              errors={errors.deviceId}
            >
              <option value="">None</option>
              {devices.map((device) => (
                <option key={device.id} value={device.id}>
                  {device.label}
                </option>
              ))}
            </SelectField>
          ) : null}
          <button type="submit" className="btn-primary" disabled={sending}>
            {sending ? "Sending…" : "Send request"}
          </button>
        </Form>
        <p className="mt-6 text-sm text-slate-400">
          Not satisfied with how we handled a request? Our Grievance Officer,{" "}
          {site.company.grievanceOfficer.name} ({site.company.grievanceOfficer.designation}), is at{" "}
          <a className="link" href={`mailto:${site.company.grievanceOfficer.email}`}>
            {site.company.grievanceOfficer.email}
          </a>
          .
        </p>
      </Section>
    </div>
  );
}
