import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { customerByEmail, signOutCustomerDevice } from "~/.server/admin/customers.server";
import { requireSession } from "~/.server/auth/session";
import { formatDateTime } from "~/components/account/dates";
import { AdminPage, AdminSection } from "~/components/admin/AdminUi";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { site } from "~/config/site";
import { formatDate } from "~/lib/format";
import { isPlatform, PLATFORMS } from "~/lib/platform";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/fix-subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Fix a subscription", "Look up a customer’s plan and devices.");

const emailSchema = z.string().trim().toLowerCase().max(320).pipe(z.email());

export async function loader({ request, context }: Route.LoaderArgs) {
  requireSession(context);
  const raw = new URL(request.url).searchParams.get("email") ?? "";
  if (raw.trim() === "") return { email: "", error: null, customer: null };
  const parsed = emailSchema.safeParse(raw);
  if (!parsed.success)
    return { email: raw, error: "Enter an email address like name@example.com.", customer: null };
  const customer = await customerByEmail(parsed.data);
  return {
    email: parsed.data,
    error: customer ? null : `No account uses ${parsed.data}.`,
    customer,
  };
}

const actionSchema = z.object({
  intent: z.literal("revoke-device"),
  userId: z.string().trim().min(1).max(200),
  deviceId: z.uuid(),
});

type ActionResult = { ok: boolean; message: string };

export async function action({ request, context }: Route.ActionArgs) {
  requireSession(context);
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success)
    return data<ActionResult>(
      { ok: false, message: "That request was not understood. Look the customer up again." },
      { status: 400 },
    );
  const revoked = await signOutCustomerDevice(parsed.data.userId, parsed.data.deviceId);
  return data<ActionResult>({
    ok: revoked,
    message: revoked
      ? "The device was signed out. It must sign in again to work online."
      : "That device was already signed out.",
  });
}

function planLabel(planId: string): string {
  const plan = site.plans.find((candidate) => candidate.id === planId);
  if (!plan) return planId;
  return plan.billingCycle ? `${plan.name} (${plan.billingCycle})` : plan.name;
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-300">{term}</dt>
      <dd className="mt-1 font-medium text-white">{children}</dd>
    </div>
  );
}

export default function FixSubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, error, customer } = loaderData;
  const busy = useNavigation().state !== "idle";

  return (
    <AdminPage>
      <PageHeader title="Fix a subscription" lead="Look up a customer’s plan and devices." />

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

      <p className="rounded-lg border border-slate-700 bg-slate-900 px-4 py-3 text-slate-200">
        Subscription repair arrives with billing. Until then there are no subscriptions to repair:
        this page shows the plan every account gets and lets you sign out its devices.
      </p>

      {customer ? (
        <>
          <AdminSection id="customer" title={customer.name}>
            <dl className="grid gap-4 sm:grid-cols-3">
              <Detail term="Email">{customer.email}</Detail>
              <Detail term="Verified">{customer.emailVerified ? "yes" : "no"}</Detail>
              <Detail term="Role">{customer.role}</Detail>
              <Detail term="Signed up">{formatDate(customer.createdAt)}</Detail>
              <Detail term="Banned">{customer.banned ? "yes" : "no"}</Detail>
            </dl>
          </AdminSection>

          <AdminSection id="entitlement" title="Entitlement">
            <dl className="grid gap-4 sm:grid-cols-3">
              <Detail term="Plan">{planLabel(customer.entitlement.plan)}</Detail>
              <Detail term="Status">{customer.entitlement.status}</Detail>
              <Detail term="Device limit">{customer.entitlement.device_limit}</Detail>
              <Detail term="Expires">
                {customer.entitlement.expires_at
                  ? formatDate(customer.entitlement.expires_at)
                  : "never"}
              </Detail>
              <Detail term="Features">{customer.entitlement.features.join(", ")}</Detail>
            </dl>
          </AdminSection>

          <AdminSection
            id="devices"
            title="Desktop devices"
            lead={`${customer.devices.length} of ${customer.entitlement.device_limit} signed in.`}
          >
            {actionData ? (
              <div className="mb-4">
                <FormMessage
                  tone={actionData.ok ? "success" : "error"}
                  message={actionData.message}
                />
              </div>
            ) : null}
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
                      <input type="hidden" name="intent" value="revoke-device" />
                      <input type="hidden" name="userId" value={customer.id} />
                      <input type="hidden" name="deviceId" value={device.id} />
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
