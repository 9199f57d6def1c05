import { data, Form } from "react-router";
import { z } from "zod";
import {
  adminCorrectGstin,
  adminExtendTrial,
  adminGrant,
  adminReplay,
  adminResync,
} from "~/.server/admin/billing-commands.server";
import {
  awaitRefund,
  requestRefund,
  reviewRefund,
  subscriptionAfterRefund,
} from "~/.server/admin/refunds.server";
import { adminCancelSubscription } from "~/.server/admin/cancel.server";
import { signOutCustomerDevice } from "~/.server/admin/customers.server";
import { customerPageView, fixSubscriptionView } from "~/.server/admin/fix-view.server";
import { currencyOfPayment } from "~/.server/billing/payments.server";
import { requireAdmin } from "~/.server/auth/session";
import { refundKey } from "~/.server/billing/refunds.server";
import { sandboxCharge, sandboxControlsAvailable } from "~/.server/billing/sandbox-control.server";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { AdminPage, AdminSection } from "~/components/admin/AdminUi";
import { AuditSection } from "~/components/admin/fix-subscription/AuditSection";
import {
  CustomerSection,
  DevicesSection,
} from "~/components/admin/fix-subscription/CustomerSections";
import { EventsSection } from "~/components/admin/fix-subscription/EventsSection";
import { GrantSection } from "~/components/admin/fix-subscription/GrantSection";
import { TrialSection } from "~/components/admin/fix-subscription/TrialSection";
import { InvoicesSection } from "~/components/admin/fix-subscription/InvoicesSection";
import { PaymentsSection } from "~/components/admin/fix-subscription/PaymentsSection";
import { AFTER_REFUND } from "~/components/admin/fix-subscription/shared";
import { SubscriptionsSection } from "~/components/admin/fix-subscription/SubscriptionsSection";
import { TicketsSection } from "~/components/admin/fix-subscription/TicketsSection";
import { TimelineSection } from "~/components/admin/fix-subscription/TimelineSection";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { timelineFilter } from "~/lib/customer-timeline";
import { formatMoney } from "~/lib/money";
import { PAID_PLAN_IDS } from "~/lib/plans";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/fix-subscription";

export const meta: Route.MetaFunction = ({ params }) =>
  pageMeta(
    params.id === undefined ? "Fix a subscription" : "Customer",
    "One customer’s history, subscriptions, payments, mails, tickets and devices.",
  );

/**
 * One module, two addresses (app/routes.ts): /admin/customers/:id, where every list links, and
 * the specification's /admin-fix-subscription, which looks the customer up by address.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const search = new URL(request.url).searchParams;
  const kinds = timelineFilter(search);
  if (params.id === undefined) return fixSubscriptionView(search.get("email") ?? "", kinds);
  const view = await customerPageView(params.id, kinds);
  if (!view) throw data({ message: "No account has this id." }, { status: 404 });
  return view;
}

const userId = z.string().trim().min(1).max(200);
const paymentId = z.string().regex(/^pay_\w+$/);
const reason = z
  .string()
  .trim()
  .min(3, { error: "Give a reason (at least 3 characters)." })
  .max(500);
const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("revoke-device"), userId, deviceId: z.uuid() }),
  z.object({ intent: z.literal("resync"), userId, subscriptionId: z.string().regex(/^sub_\w+$/) }),
  z.object({ intent: z.literal("replay"), userId, eventId: z.string().min(1).max(100) }),
  z.object({
    intent: z.literal("refund-review"),
    userId,
    paymentId,
    amount: z
      .string()
      .trim()
      .regex(/^(\d{1,7}(\.\d{1,2})?)?$/, {
        error: "Enter rupees like 349 or 349.50, or leave empty for everything left.",
      }),
    reason,
  }),
  z.object({
    intent: z.literal("refund"),
    userId,
    paymentId,
    amountPaise: z.coerce.number().int().min(100).max(100_000_000),
    reason,
    key: refundKey,
    // What happens to the subscription when the refund does not end it by itself (point 7).
    afterRefund: z.enum(AFTER_REFUND).optional(),
  }),
  z.object({
    intent: z.literal("grant"),
    userId,
    planId: z.enum(PAID_PLAN_IDS),
    days: z.coerce
      .number()
      .int({ error: "Whole days." })
      .min(1, { error: "At least 1 day." })
      .max(366, { error: "At most 366 days." }),
    reason,
  }),
  z.object({
    intent: z.literal("extend-trial"),
    userId,
    days: z.coerce
      .number()
      .int({ error: "Whole days." })
      .min(1, { error: "At least 1 day." })
      .max(90, { error: "At most 90 days." }),
    reason,
  }),
  z.object({
    intent: z.enum(["sandbox-charge", "sandbox-fail"]),
    userId,
    subscriptionId: z.string().regex(/^sub_\w+$/),
  }),
  z.object({
    intent: z.literal("cancel"),
    userId,
    subscriptionId: z.string().regex(/^sub_\w+$/),
    when: z.enum(["now", "period-end"]),
    cancelReason: reason,
    cancelConfirm: z.literal("yes", { error: "Tick the box to confirm." }),
  }),
  z.object({
    intent: z.literal("correct-gstin"),
    userId,
    invoiceId: z.uuid(),
    gstin: z.string().trim().toUpperCase().max(20).default(""),
    reason,
  }),
]);

/** "349.50" → 34950 paise, exactly (no floating point). */
function rupeesToPaise(value: string): number | null {
  if (value === "") return null;
  const [rupees = "0", paise = ""] = value.split(".");
  return Number(rupees) * 100 + Number(paise.padEnd(2, "0"));
}

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    actionSchema,
    async (input, session) => {
      switch (input.intent) {
        case "revoke-device": {
          const revoked = await signOutCustomerDevice(input.userId, input.deviceId);
          return revoked
            ? done(input.intent, "The device was signed out. It must sign in again to work online.")
            : refuse(input.intent, "That device was already signed out.", 409);
        }
        case "resync":
          return done(input.intent, await adminResync(session, input.userId, input.subscriptionId));
        case "replay":
          return done(input.intent, await adminReplay(session, input.userId, input.eventId));
        case "refund-review":
          return data({
            intent: input.intent,
            ok: true,
            message: "",
            refund: {
              review: await reviewRefund(session, input.userId, {
                paymentId: input.paymentId,
                amountPaise: rupeesToPaise(input.amount),
              }),
              reason: input.reason,
            },
          });
        case "refund": {
          // The confirmation asked: refused here too, so no form skips the question.
          const subscription = await subscriptionAfterRefund(input.paymentId, input.amountPaise);
          if (subscription?.afterRefund === "choose" && !input.afterRefund)
            return refuse(
              input.intent,
              `Choose what happens to subscription ${subscription.id} after the refund.`,
            );
          const { queued } = await requestRefund(session, input.userId, input);
          const outcome = await awaitRefund(input.paymentId, input.key);
          const currency = await currencyOfPayment(input.paymentId);
          const amount = formatMoney(input.amountPaise, currency);
          if (outcome.state === "made") {
            const refunded = `Refunded ${formatMoney(outcome.amountPaise, currency)} (${outcome.refundId})${outcome.creditNote ? `; credit note ${outcome.creditNote} issued and mailed to the customer` : ""}.`;
            const when = input.afterRefund;
            if (subscription?.afterRefund !== "choose" || !when || when === "keep")
              return done(
                input.intent,
                subscription?.afterRefund === "ends"
                  ? `${refunded} The current period is now unpaid, so the subscription has ended and the customer is on Free (the refund policy).`
                  : refunded,
              );
            const cancelled = await adminCancelSubscription(session, input.userId, {
              subscriptionId: subscription.id,
              when,
              reason: input.reason,
            });
            return done(input.intent, `${refunded} ${cancelled}`);
          }
          if (outcome.state === "refused")
            return refuse(
              input.intent,
              `The refund of ${amount} was not made: ${outcome.error}`,
              502,
            );
          return done(
            input.intent,
            `${queued ? "Refund" : "This refund"} of ${amount} requested; Razorpay has not confirmed it yet. It is retried in the background (never twice) and shows under Payments once made.`,
          );
        }
        case "correct-gstin":
          return done(
            input.intent,
            await adminCorrectGstin(session, input.userId, {
              invoiceId: input.invoiceId,
              gstin: input.gstin || null,
              reason: input.reason,
            }),
          );
        case "grant":
          return done(input.intent, await adminGrant(session, input.userId, input));
        case "extend-trial":
          return done(input.intent, await adminExtendTrial(session, input.userId, input));
        case "cancel":
          return done(
            input.intent,
            await adminCancelSubscription(session, input.userId, {
              subscriptionId: input.subscriptionId,
              when: input.when,
              reason: input.cancelReason,
            }),
          );
        case "sandbox-charge":
        case "sandbox-fail":
          if (!sandboxControlsAvailable())
            return refuse(input.intent, "Only the payment sandbox has these controls.", 404);
          return done(
            input.intent,
            await sandboxCharge(input.subscriptionId, input.intent === "sandbox-fail"),
          );
      }
    },
    { role: "admin" },
  );
}

export default function FixSubscriptionPage({
  loaderData,
  actionData,
  params,
}: Route.ComponentProps) {
  const { email, error, customer, billing, comparisons, sandbox, timeline } = loaderData;
  const errors = (actionData && "errors" in actionData ? actionData.errors : undefined) ?? {};
  const refund = actionData && "refund" in actionData ? actionData.refund : null;
  // What every section's forms need besides their own data.
  const section = { customerId: customer?.id ?? "", errors };

  return (
    <AdminPage>
      <PageHeader
        title={params.id === undefined ? "Fix a subscription" : "Customer"}
        lead="One customer’s history, subscriptions, payments, mails, tickets and devices."
      >
        <div className="mt-3">
          <TestModeBadge show={sandbox} />
        </div>
      </PageHeader>

      <Form method="get" action="/admin-fix-subscription" className="flex max-w-xl items-end gap-3">
        <div className="flex-1">
          <label htmlFor="customer-email" className="block text-sm font-medium text-slate-200">
            Customer email
          </label>
          <input
            id="customer-email"
            type="email"
            name="email"
            defaultValue={email}
            required
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "customer-email-error" : undefined}
            className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none"
          />
        </div>
        <button type="submit" className="btn-primary">
          Look up
        </button>
      </Form>
      {error ? (
        <p id="customer-email-error" role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}

      {customer && billing ? (
        <>
          <CustomerSection customer={customer} />
          <TimelineSection
            timeline={timeline}
            // The filter stays on the address it was opened at.
            lookup={params.id === undefined ? { email: customer.email } : {}}
          />
          <TicketsSection tickets={loaderData.tickets} />
          <SubscriptionsSection
            subscriptions={billing.subscriptions}
            comparisons={comparisons}
            sandbox={sandbox}
            {...section}
          />
          <PaymentsSection
            payments={billing.payments}
            review={refund}
            email={customer.email}
            {...section}
          />
          <InvoicesSection invoices={billing.invoices} {...section} />
          {billing.trial ? <TrialSection trial={billing.trial} {...section} /> : null}
          {billing.teams.length > 0 ? (
            <AdminSection id="teams" title="Teams">
              <ul className="space-y-1 text-slate-200" data-testid="admin-teams">
                {billing.teams.map((team) => (
                  <li key={team.id}>
                    {`${team.name} · ${team.roleLabel}${team.seat ? " · Pro seat" : ""}`}
                  </li>
                ))}
              </ul>
            </AdminSection>
          ) : null}
          <GrantSection grants={billing.grants} {...section} />
          <EventsSection events={billing.events} {...section} />
          <AuditSection audit={billing.audit} />
          <DevicesSection customer={customer} />
        </>
      ) : null}
    </AdminPage>
  );
}
