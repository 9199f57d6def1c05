import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import type { FixCustomer } from "~/.server/admin/fix-view.server";
import { AdminSection, HiddenFields } from "~/components/admin/AdminUi";
import { formatDate, formatDateTime } from "~/lib/dates";
import { isPlatform, PLATFORMS } from "~/lib/platform";

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-slate-300">{term}</dt>
      {/* Grid items are as wide as their longest word: an email address must break anywhere. */}
      <dd className="mt-1 font-medium text-white wrap-anywhere">{children}</dd>
    </div>
  );
}

export function CustomerSection({ customer }: { customer: FixCustomer }) {
  return (
    <AdminSection id="customer" title={customer.name}>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Detail term="Email">{customer.email}</Detail>
        <Detail term="Verified">{customer.emailVerified ? "yes" : "no"}</Detail>
        <Detail term="Role">{customer.role}</Detail>
        <Detail term="Signed up">{formatDate(customer.createdAt)}</Detail>
        <Detail term="Plan now">
          <span data-testid="customer-plan">{customer.plan.name}</span>
          {customer.plan.kind === "team" ? (
            <span className="mt-1 block text-sm font-normal text-slate-300">
              {customer.plan.text}
            </span>
          ) : null}
        </Detail>
        <Detail term="Plan until">
          {customer.entitlement.expires_at ? formatDate(customer.entitlement.expires_at) : "no end"}
        </Detail>
      </dl>
    </AdminSection>
  );
}

export function DevicesSection({ customer }: { customer: FixCustomer }) {
  const pending = usePendingForms();
  return (
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
              {/* A flex item is as wide as its longest word: the app names its computer. */}
              <div className="min-w-0">
                <p className="font-medium text-white wrap-anywhere">{device.name}</p>
                <p className="text-sm text-slate-300">
                  {`${isPlatform(device.platform) ? PLATFORMS[device.platform].label : device.platform} · app ${device.appVersion} · signed in ${formatDateTime(device.createdAt)} · last seen ${formatDateTime(device.lastSeenAt)}`}
                </p>
              </div>
              <Form method="post">
                <HiddenFields
                  values={{ intent: "revoke-device", userId: customer.id, deviceId: device.id }}
                />
                <button
                  type="submit"
                  className="btn-secondary"
                  disabled={pending({ intent: "revoke-device", fields: { deviceId: device.id } })}
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
  );
}
