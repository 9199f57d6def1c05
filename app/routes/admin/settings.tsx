import { Form, Link } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import { z } from "zod";
import { alertSettingsOf, recentAlerts, saveAlertSettings } from "~/.server/alerts/settings.server";
import { requireAdmin } from "~/.server/auth/session";
import { done, formAction } from "~/.server/forms/action.server";
import {
  AdminPage,
  AdminSection,
  AdminTable,
  ChoiceGroup,
  TD,
  TR,
} from "~/components/admin/AdminUi";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import {
  ALERT_DELIVERIES,
  ALERT_DELIVERY_LABELS,
  ALERT_KIND_LABELS,
  ALERT_KINDS,
  type AlertKind,
} from "~/lib/alerts";
import { formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () =>
  pageMeta("Settings", "Which events reach you by mail, at once or in a daily digest.");

export async function loader({ context }: Route.LoaderArgs) {
  const session = requireAdmin(context);
  const [settings, alerts] = await Promise.all([alertSettingsOf(session.user.id), recentAlerts()]);
  return {
    email: session.user.email,
    settings,
    alerts: alerts.map((alert) => ({ ...alert, createdAt: alert.createdAt.toISOString() })),
  };
}

/** One checkbox per kind ("kind-ticket-new"), so the form needs no repeated field names. */
const schema = z
  .object({
    intent: z.literal("save-alerts"),
    delivery: z.enum(ALERT_DELIVERIES, { error: "Choose how alerts reach you." }),
  })
  .extend(
    Object.fromEntries(
      ALERT_KINDS.map((kind) => [`kind-${kind}`, z.literal("on").optional()]),
    ) as Record<`kind-${AlertKind}`, z.ZodOptional<z.ZodLiteral<"on">>>,
  );

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    schema,
    async (input, session) => {
      const fields = input as Record<string, string | undefined>;
      const kinds = ALERT_KINDS.filter((kind) => fields[`kind-${kind}`] === "on");
      await saveAlertSettings(session, { kinds, delivery: input.delivery });
      return done(
        input.intent,
        kinds.length === 0
          ? "Saved: no alerts will reach you."
          : `Saved: ${kinds.length === 1 ? "1 kind of alert reaches" : `${kinds.length} kinds of alert reach`} ${session.user.email}, ${input.delivery === "now" ? "each at once" : "in the daily digest"}.`,
      );
    },
    { role: "admin", invalidMessage: "Choose how alerts reach you." },
  );
}

export default function AdminSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const saving = useFormPending({ intent: "save-alerts" });
  const { settings, alerts, email } = loaderData;
  return (
    <AdminPage>
      <PageHeader
        title="Settings"
        lead={`Alerts: what reaches ${email} by mail. Each event is mailed once, to each admin who chose it.`}
      />
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}
      <AdminSection id="alerts-heading" title="Your alerts">
        <Form method="post" className="space-y-6">
          <input type="hidden" name="intent" value="save-alerts" />
          <ChoiceGroup
            legend="Tell me when"
            type="checkbox"
            options={ALERT_KINDS.map((kind) => ({
              name: `kind-${kind}`,
              label: ALERT_KIND_LABELS[kind],
              checked: settings.kinds.includes(kind),
            }))}
          />
          <ChoiceGroup
            legend="How"
            type="radio"
            options={ALERT_DELIVERIES.map((delivery) => ({
              name: "delivery",
              value: delivery,
              label: ALERT_DELIVERY_LABELS[delivery],
              checked: settings.delivery === delivery,
            }))}
          />
          <button type="submit" className="btn-primary" disabled={saving}>
            Save alerts
          </button>
        </Form>
      </AdminSection>
      <AdminSection id="recent-alerts-heading" title="Recent alerts">
        {alerts.length === 0 ? (
          <p className="text-slate-300">Nothing has happened that would alert anyone yet.</p>
        ) : (
          <AdminTable caption="The newest alerts" columns={["When", "What", "Kind"]}>
            {alerts.map((alert) => (
              <tr key={alert.id} className={TR}>
                <td className={`${TD} whitespace-nowrap`}>{formatDateTime(alert.createdAt)}</td>
                <td className={`${TD} min-w-64 break-words`}>
                  <Link to={alert.path} className="link">
                    {alert.summary}
                  </Link>
                </td>
                <td className={TD}>{ALERT_KIND_LABELS[alert.kind]}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </AdminPage>
  );
}
