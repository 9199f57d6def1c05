import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import type { FixBilling } from "~/.server/admin/fix-view.server";
import { AdminSection, AdminTable, HiddenFields, TD, TR } from "~/components/admin/AdminUi";
import { formatDateTime } from "~/lib/dates";
import type { SectionProps } from "./shared";

export function EventsSection({
  events,
  customerId,
}: SectionProps & { events: FixBilling["events"] }) {
  const pending = usePendingForms();
  return (
    <AdminSection
      id="events"
      title="Webhook events"
      lead="As Razorpay sent them; replay applies one again."
    >
      {events.length === 0 ? (
        <p className="text-slate-300">No events.</p>
      ) : (
        <AdminTable
          caption="Webhook events of this customer’s subscriptions"
          columns={["Received", "Event", "Id", "Processed", ""]}
        >
          {events.map((event) => (
            <tr key={event.eventId} className={TR}>
              <td className={TD}>{formatDateTime(event.receivedAt)}</td>
              <td className={TD}>{event.event}</td>
              <td className={`${TD} font-mono text-xs`}>{event.eventId}</td>
              <td className={TD}>
                {event.processedAt
                  ? `${formatDateTime(event.processedAt)} (×${event.processCount})`
                  : "waiting"}
              </td>
              <td className={TD}>
                <Form method="post">
                  <HiddenFields
                    values={{ intent: "replay", userId: customerId, eventId: event.eventId }}
                  />
                  <button
                    type="submit"
                    className="btn-secondary"
                    disabled={pending({ intent: "replay", fields: { eventId: event.eventId } })}
                    aria-label={`Replay ${event.event} ${event.eventId}`}
                  >
                    Replay
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </AdminSection>
  );
}
