import { Link } from "react-router";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import { entitlementFor } from "~/.server/billing/entitlement.server";
import { activeDeviceCount } from "~/.server/desktop/devices.server";
import { PageHeader } from "~/components/PageHeader";
import { type Plan, site } from "~/config/site";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Subscription", "Your plan, its device limit and how to upgrade.");

/** The pricing page sends people here with the paid plan they picked; anything else is ignored. */
const chosenPlanSchema = z.enum(["pro-monthly", "pro-yearly"]);

function planLabel(plan: Plan): string {
  return plan.billingCycle ? `${plan.name} (${plan.billingCycle})` : plan.name;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const [entitlement, devicesInUse] = await Promise.all([
    entitlementFor(user.id),
    activeDeviceCount(user.id),
  ]);
  const current = site.plans.find((plan) => plan.id === entitlement.plan);
  const requested = chosenPlanSchema.safeParse(new URL(request.url).searchParams.get("plan"));
  const chosen = requested.success
    ? site.plans.find((plan) => plan.id === requested.data)
    : undefined;
  return {
    plan: {
      name: current ? planLabel(current) : entitlement.plan,
      features: entitlement.features,
      deviceLimit: entitlement.device_limit,
    },
    devicesInUse,
    chosen: chosen && chosen.id !== entitlement.plan ? planLabel(chosen) : null,
  };
}

export default function SubscriptionPage({ loaderData }: Route.ComponentProps) {
  const { plan, devicesInUse, chosen } = loaderData;
  const devices = (count: number) => `${count} ${count === 1 ? "device" : "devices"}`;

  return (
    <div className="space-y-6">
      <PageHeader title="Subscription" lead="Your plan and what it includes." />

      {chosen ? (
        <p
          role="status"
          className="rounded-lg border border-green-500/40 bg-green-950/40 px-4 py-3 text-green-200"
        >
          {`You chose ${chosen} on the pricing page; checkout opens here when billing is live.`}
        </p>
      ) : null}

      <section
        aria-labelledby="current-plan"
        className="rounded-xl border border-slate-800 bg-slate-900 p-6"
      >
        <h2 id="current-plan" className="text-lg font-semibold text-white">
          Current plan
        </h2>
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-sm text-slate-300">Plan</dt>
            <dd className="mt-1 text-xl font-semibold text-white">{plan.name}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-300">Device limit</dt>
            <dd className="mt-1 text-xl font-semibold text-white">{devices(plan.deviceLimit)}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-300">Devices in use</dt>
            <dd className="mt-1 text-xl font-semibold text-white">
              {`${devicesInUse} of ${plan.deviceLimit}`}
            </dd>
          </div>
        </dl>
        <h3 className="mt-6 text-sm font-medium text-slate-300">Included</h3>
        <ul className="mt-2 list-inside list-disc text-slate-200">
          {plan.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
        <p className="mt-6 text-sm text-slate-300">
          Sign out a device you no longer use on the{" "}
          <Link to="/account/security" className="link">
            Security
          </Link>{" "}
          page.
        </p>
      </section>

      <section
        aria-labelledby="upgrade"
        className="rounded-xl border border-slate-800 bg-slate-900 p-6"
      >
        <h2 id="upgrade" className="text-lg font-semibold text-white">
          Upgrade
        </h2>
        <p className="mt-3 text-slate-300">
          Paid plans arrive with billing. Nothing is charged now.
        </p>
        <Link to="/pricing" className="btn-primary mt-4">
          Compare plans
        </Link>
      </section>
    </div>
  );
}
