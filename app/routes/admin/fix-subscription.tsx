import { Form, useNavigation } from "react-router";
import { z } from "zod";
import {
  AdminRefusal,
  adminCorrectGstin,
  adminGrant,
  adminRefund,
  adminReplay,
  adminResync,
  customerBilling,
} from "~/.server/admin/billing.server";
import { customerByEmail, signOutCustomerDevice } from "~/.server/admin/customers.server";
import { requireAdmin } from "~/.server/auth/session";
import { compareWithProvider } from "~/.server/billing/compare.server";
import { paymentMethodOf } from "~/.server/billing/payments.server";
import { statusText } from "~/.server/billing/overview.server";
import { sandboxCharge, sandboxControlsAvailable } from "~/.server/billing/sandbox-control.server";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { formatDateTime } from "~/lib/dates";
import { AdminPage, AdminSection, HeaderRow, TD } from "~/components/admin/AdminUi";
import { ComparisonTable } from "~/components/billing/ComparisonTable";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import { Field, FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import { PAID_PLAN_IDS, planLabel } from "~/lib/plans";
import { isPlatform, PLATFORMS } from "~/lib/platform";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/fix-subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Fix a subscription", "One customer’s subscriptions, payments, events and devices.");

const emailSchema = z.string().trim().toLowerCase().max(320).pipe(z.email());

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const raw = new URL(request.url).searchParams.get("email") ?? "";
  const sandbox = sandboxControlsAvailable();
  const empty = { email: raw, customer: null, billing: null, comparisons: [], sandbox };
  if (raw.trim() === "") return { ...empty, error: null };
  const parsed = emailSchema.safeParse(raw);
  if (!parsed.success) return { ...empty, error: "Enter an email address like name@example.com." };
  const customer = await customerByEmail(parsed.data);
  if (!customer) return { ...empty, email: parsed.data, error: `No account uses ${parsed.data}.` };
  const billing = await customerBilling(customer.id);
  const running = billing.subscriptions
    .filter((row) => row.status !== "created" && row.status !== "expired")
    .slice(0, 3);
  const comparisons = await Promise.all(running.map((row) => compareWithProvider(row)));
  return {
    email: parsed.data,
    error: null,
    customer,
    sandbox,
    comparisons,
    billing: {
      subscriptions: billing.subscriptions.map((row) => ({
        id: row.providerSubscriptionId,
        plan: planLabel(row.planId),
        status: statusText(row),
        rawStatus: row.status,
        currentEnd: row.currentEnd?.toISOString() ?? null,
        cancelReason: row.cancelReason,
      })),
      payments: billing.payments.map((payment) => ({
        id: payment.providerPaymentId,
        amountPaise: payment.amountPaise,
        refundedPaise: payment.amountRefundedPaise,
        status: payment.status,
        method: paymentMethodOf(payment).label,
        paidAt: payment.paidAt.toISOString(),
      })),
      events: billing.events.map((event) => ({
        ...event,
        receivedAt: event.receivedAt.toISOString(),
        processedAt: event.processedAt?.toISOString() ?? null,
      })),
      invoices: billing.invoices.map((row) => ({
        id: row.id,
        kind: row.kind,
        number: row.number,
        issuedAt: row.issuedAt.toISOString(),
        totalPaise: row.totalPaise,
        gstin: row.document.buyer.gstin,
        credited: billing.invoices.some((other) => other.originalInvoiceId === row.id),
      })),
      grants: billing.grants.map((grant) => ({
        id: grant.id,
        plan: planLabel(grant.planId),
        endsAt: grant.endsAt.toISOString(),
        reason: grant.reason,
      })),
      audit: billing.audit.map((entry) => ({
        id: entry.id,
        actor: entry.actorEmail,
        action: entry.action,
        target: entry.target,
        reason: entry.reason,
        before: entry.before === null ? "" : JSON.stringify(entry.before),
        after: entry.after === null ? "" : JSON.stringify(entry.after),
        at: entry.createdAt.toISOString(),
      })),
    },
  };
}

const userId = z.string().trim().min(1).max(200);
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
    intent: z.literal("refund"),
    userId,
    paymentId: z.string().regex(/^pay_\w+$/),
    amount: z
      .string()
      .trim()
      .regex(/^(\d{1,7}(\.\d{1,2})?)?$/, {
        error: "Enter rupees like 349 or 349.50, or leave empty for the rest.",
      }),
    reason,
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
    intent: z.enum(["sandbox-charge", "sandbox-fail"]),
    userId,
    subscriptionId: z.string().regex(/^sub_\w+$/),
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
      try {
        switch (input.intent) {
          case "revoke-device": {
            const revoked = await signOutCustomerDevice(input.userId, input.deviceId);
            return revoked
              ? done(
                  input.intent,
                  "The device was signed out. It must sign in again to work online.",
                )
              : refuse(input.intent, "That device was already signed out.", 409);
          }
          case "resync":
            return done(
              input.intent,
              await adminResync(session, input.userId, input.subscriptionId),
            );
          case "replay":
            return done(input.intent, await adminReplay(session, input.userId, input.eventId));
          case "refund":
            return done(
              input.intent,
              await adminRefund(session, input.userId, {
                paymentId: input.paymentId,
                amountPaise: rupeesToPaise(input.amount),
                reason: input.reason,
              }),
            );
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
          case "sandbox-charge":
          case "sandbox-fail":
            if (!sandboxControlsAvailable())
              return refuse(input.intent, "Only the payment sandbox has these controls.", 404);
            return done(
              input.intent,
              await sandboxCharge(input.subscriptionId, input.intent === "sandbox-fail"),
            );
        }
      } catch (error) {
        if (error instanceof AdminRefusal) return refuse(input.intent, error.message, error.status);
        throw error;
      }
    },
    { role: "admin" },
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-300">{term}</dt>
      <dd className="mt-1 font-medium text-white">{children}</dd>
    </div>
  );
}

function Hidden({ values }: { values: Record<string, string> }) {
  return (
    <>
      {Object.entries(values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

export default function FixSubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, error, customer, billing, comparisons, sandbox } = loaderData;
  const busy = useNavigation().state !== "idle";
  const errors = actionData?.errors ?? {};

  return (
    <AdminPage>
      <PageHeader
        title="Fix a subscription"
        lead="One customer’s subscriptions, payments, webhook events and devices."
      >
        <div className="mt-3">
          <TestModeBadge show={sandbox} />
        </div>
      </PageHeader>

      <Form method="get" className="flex max-w-xl items-end gap-3">
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
          <AdminSection id="customer" title={customer.name}>
            <dl className="grid gap-4 sm:grid-cols-3">
              <Detail term="Email">{customer.email}</Detail>
              <Detail term="Verified">{customer.emailVerified ? "yes" : "no"}</Detail>
              <Detail term="Role">{customer.role}</Detail>
              <Detail term="Signed up">{formatDate(customer.createdAt)}</Detail>
              <Detail term="Plan now">{planLabel(customer.entitlement.plan)}</Detail>
              <Detail term="Plan until">
                {customer.entitlement.expires_at
                  ? formatDate(customer.entitlement.expires_at)
                  : "no end"}
              </Detail>
            </dl>
          </AdminSection>

          <AdminSection
            id="subscriptions"
            title="Subscriptions"
            lead="Our record beside Razorpay’s."
          >
            {billing.subscriptions.length === 0 ? (
              <p className="text-slate-300">No subscriptions.</p>
            ) : null}
            <ul className="space-y-6">
              {billing.subscriptions.map((sub) => {
                const comparison = comparisons.find(
                  (entry) => entry.providerSubscriptionId === sub.id,
                );
                return (
                  <li key={sub.id} className="rounded-lg border border-slate-800 p-4">
                    <p className="font-medium text-white">
                      {`${sub.plan} · ${sub.status}`}{" "}
                      <span className="font-mono text-xs text-slate-300">{sub.id}</span>
                    </p>
                    {sub.currentEnd ? (
                      <p className="text-sm text-slate-300">{`Period ends ${formatDate(sub.currentEnd)}`}</p>
                    ) : null}
                    {sub.cancelReason ? (
                      <p className="text-sm text-slate-300">{`Cancel reason: ${sub.cancelReason}`}</p>
                    ) : null}
                    {comparison ? (
                      <div className="mt-3">
                        <ComparisonTable comparison={comparison} />
                      </div>
                    ) : null}
                    <div className="mt-3 flex flex-wrap gap-2">
                      <Form method="post">
                        <Hidden
                          values={{ intent: "resync", userId: customer.id, subscriptionId: sub.id }}
                        />
                        <button type="submit" className="btn-secondary" disabled={busy}>
                          Resync from provider
                        </button>
                      </Form>
                      {sandbox &&
                      ["active", "pending", "halted", "authenticated"].includes(sub.rawStatus) ? (
                        <>
                          <Form method="post">
                            <Hidden
                              values={{
                                intent: "sandbox-charge",
                                userId: customer.id,
                                subscriptionId: sub.id,
                              }}
                            />
                            <button type="submit" className="btn-secondary" disabled={busy}>
                              Charge now
                            </button>
                          </Form>
                          <Form method="post">
                            <Hidden
                              values={{
                                intent: "sandbox-fail",
                                userId: customer.id,
                                subscriptionId: sub.id,
                              }}
                            />
                            <button type="submit" className="btn-secondary" disabled={busy}>
                              Charge now and fail it
                            </button>
                          </Form>
                        </>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          </AdminSection>

          <AdminSection id="payments" title="Payments">
            {billing.payments.length === 0 ? (
              <p className="text-slate-300">No payments.</p>
            ) : (
              <div className="relative overflow-x-auto">
                <table className="w-full">
                  <caption className="sr-only">Payments of this customer</caption>
                  <HeaderRow
                    columns={["When", "Payment", "Amount", "Refunded", "Status", "Method", ""]}
                  />
                  <tbody>
                    {billing.payments.map((payment) => (
                      <tr key={payment.id} className="border-b border-slate-800">
                        <td className={TD}>{formatDateTime(payment.paidAt)}</td>
                        <td className={`${TD} font-mono text-xs`}>{payment.id}</td>
                        <td className={TD}>{formatInr(payment.amountPaise)}</td>
                        <td className={TD}>{formatInr(payment.refundedPaise)}</td>
                        <td className={TD}>{payment.status}</td>
                        <td className={TD}>{payment.method}</td>
                        <td className={TD}>
                          {payment.status === "captured" ||
                          (payment.status === "refunded" &&
                            payment.refundedPaise < payment.amountPaise) ? (
                            <Form method="post" className="flex flex-wrap items-end gap-2">
                              <Hidden
                                values={{
                                  intent: "refund",
                                  userId: customer.id,
                                  paymentId: payment.id,
                                }}
                              />
                              <Field
                                label="Amount in ₹ (empty: all)"
                                name="amount"
                                className="w-36"
                                inputMode="decimal"
                                errors={errors.amount}
                              />
                              <Field
                                label="Reason"
                                name="reason"
                                className="w-48"
                                errors={errors.reason}
                              />
                              <button type="submit" className="btn-secondary mb-6" disabled={busy}>
                                Refund
                              </button>
                            </Form>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </AdminSection>

          <AdminSection
            id="invoices"
            title="Invoices and credit notes"
            lead="Issued documents never change: correcting a GSTIN issues a credit note and a new invoice."
          >
            {billing.invoices.length === 0 ? (
              <p className="text-slate-300">No invoices.</p>
            ) : (
              <ul className="divide-y divide-slate-800">
                {billing.invoices.map((invoice) => (
                  <li
                    key={invoice.id}
                    className="flex flex-wrap items-end justify-between gap-3 py-3"
                  >
                    <p className="text-slate-100">
                      <a className="link font-mono" href={`/invoices/${invoice.id}.pdf`}>
                        {invoice.number}
                      </a>
                      {` · ${invoice.kind === "credit_note" ? "credit note" : "invoice"} · ${formatDate(invoice.issuedAt)} · ${formatInr(invoice.totalPaise)} · GSTIN ${invoice.gstin ?? "none"}`}
                    </p>
                    {invoice.kind === "invoice" && !invoice.credited ? (
                      <Form method="post" className="flex flex-wrap items-end gap-2">
                        <Hidden
                          values={{
                            intent: "correct-gstin",
                            userId: customer.id,
                            invoiceId: invoice.id,
                          }}
                        />
                        <Field
                          label="Correct GSTIN (empty: none)"
                          name="gstin"
                          className="w-56"
                          errors={errors.gstin}
                        />
                        <Field
                          label="Reason"
                          name="reason"
                          className="w-48"
                          errors={errors.reason}
                        />
                        <button type="submit" className="btn-secondary mb-6" disabled={busy}>
                          Reissue
                        </button>
                      </Form>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </AdminSection>

          <AdminSection
            id="grant"
            title="Grant a plan"
            lead="Pro without payment for a number of days (goodwill, press, support)."
          >
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <Hidden values={{ intent: "grant", userId: customer.id }} />
              <div>
                <label htmlFor="grant-plan" className="block text-sm font-medium text-slate-200">
                  Plan
                </label>
                <select
                  id="grant-plan"
                  name="planId"
                  className="mt-1 mb-6 block rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100"
                >
                  {PAID_PLAN_IDS.map((plan) => (
                    <option key={plan} value={plan}>
                      {planLabel(plan)}
                    </option>
                  ))}
                </select>
              </div>
              <Field
                label="Days"
                name="days"
                type="number"
                min={1}
                max={366}
                defaultValue="30"
                className="w-24"
                errors={errors.days}
              />
              <Field label="Reason" name="reason" className="w-72" errors={errors.reason} />
              <button type="submit" className="btn-primary mb-6" disabled={busy}>
                Grant
              </button>
            </Form>
            {billing.grants.length > 0 ? (
              <ul className="mt-2 text-sm text-slate-200">
                {billing.grants.map((grant) => (
                  <li
                    key={grant.id}
                  >{`${grant.plan} until ${formatDate(grant.endsAt)}: ${grant.reason}`}</li>
                ))}
              </ul>
            ) : null}
          </AdminSection>

          <AdminSection
            id="events"
            title="Webhook events"
            lead="As Razorpay sent them; replay applies one again."
          >
            {billing.events.length === 0 ? (
              <p className="text-slate-300">No events.</p>
            ) : (
              <div className="relative overflow-x-auto">
                <table className="w-full">
                  <caption className="sr-only">
                    Webhook events of this customer’s subscriptions
                  </caption>
                  <HeaderRow columns={["Received", "Event", "Id", "Processed", ""]} />
                  <tbody>
                    {billing.events.map((event) => (
                      <tr key={event.eventId} className="border-b border-slate-800">
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
                            <Hidden
                              values={{
                                intent: "replay",
                                userId: customer.id,
                                eventId: event.eventId,
                              }}
                            />
                            <button
                              type="submit"
                              className="btn-secondary"
                              disabled={busy}
                              aria-label={`Replay ${event.event} ${event.eventId}`}
                            >
                              Replay
                            </button>
                          </Form>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </AdminSection>

          <AdminSection
            id="audit"
            title="Audit log"
            lead="Every admin action on this customer’s billing."
          >
            {billing.audit.length === 0 ? (
              <p className="text-slate-300">Nothing yet.</p>
            ) : (
              <div className="relative overflow-x-auto">
                <table className="w-full">
                  <caption className="sr-only">Admin actions on this customer</caption>
                  <HeaderRow
                    columns={["When", "Who", "Action", "Target", "Reason", "Before", "After"]}
                  />
                  <tbody>
                    {billing.audit.map((entry) => (
                      <tr
                        key={entry.id}
                        className="border-b border-slate-800"
                        data-testid="audit-row"
                      >
                        <td className={TD}>{formatDateTime(entry.at)}</td>
                        <td className={TD}>{entry.actor}</td>
                        <td className={TD}>{entry.action}</td>
                        <td className={`${TD} font-mono text-xs`}>{entry.target}</td>
                        <td className={TD}>{entry.reason}</td>
                        <td className={`${TD} font-mono text-xs break-all`}>{entry.before}</td>
                        <td className={`${TD} font-mono text-xs break-all`}>{entry.after}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </AdminSection>

          <AdminSection
            id="devices"
            title="Desktop devices"
            lead={`${customer.devices.length} of ${customer.entitlement.device_limit} signed in.`}
          >
            {customer.devices.length === 0 ? (
              <p className="text-slate-300">No desktop app is signed in to this account.</p>
            ) : (
              <ul className="divide-y divide-slate-800">
                {customer.devices.map((device) => (
                  <li key={device.id} className="flex items-center justify-between gap-4 py-3">
                    <div>
                      <p className="font-medium text-white">{device.name}</p>
                      <p className="text-sm text-slate-300">
                        {`${isPlatform(device.platform) ? PLATFORMS[device.platform].label : device.platform} · app ${device.appVersion} · signed in ${formatDateTime(device.createdAt)} · last seen ${formatDateTime(device.lastSeenAt)}`}
                      </p>
                    </div>
                    <Form method="post">
                      <Hidden
                        values={{
                          intent: "revoke-device",
                          userId: customer.id,
                          deviceId: device.id,
                        }}
                      />
                      <button
                        type="submit"
                        className="btn-secondary"
                        disabled={busy}
                        aria-label={`Sign out device ${device.name}`}
                      >
                        Sign out device
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
          </AdminSection>
        </>
      ) : null}
    </AdminPage>
  );
}
