import { Link } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { entitlementFor } from "~/.server/billing/entitlement.server";
import { activeDeviceCount } from "~/.server/desktop/devices.server";
import { PageHeader } from "~/components/PageHeader";
import { site } from "~/config/site";
import { SignOutButton } from "~/components/SignOutButton";
import { findPlan } from "~/lib/plans";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = () =>
  pageMeta("Account", "Your account, plan and devices.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const [entitlement, devicesInUse] = await Promise.all([
    entitlementFor(user.id),
    activeDeviceCount(user.id),
  ]);
  const plan = findPlan(entitlement.plan);
  return {
    user: { name: user.name, email: user.email, role: user.role },
    plan: {
      name: plan?.name ?? entitlement.plan,
      deviceLimit: entitlement.device_limit,
      devicesInUse,
    },
  };
}

/**
 * Until the first desktop sign-in, the overview says what to do next: most new accounts come from
 * the download page and still have to connect the app.
 */
function NextSteps() {
  return (
    <section
      aria-labelledby="next-steps"
      className="mb-8 rounded-xl border border-green-500/40 bg-green-950/30 p-5"
    >
      <h2 id="next-steps" className="text-lg font-semibold text-white">
        Welcome to {site.product.name}: two steps to get going
      </h2>
      <ol className="mt-3 list-decimal space-y-2 pl-5 text-slate-200">
        <li>
          <Link className="link" to="/download">
            Download the app
          </Link>{" "}
          for Mac or Windows and install it.
        </li>
        <li>
          Open it and choose <strong>Sign in</strong>: your browser opens this site to connect the
          app to your account. Your plan then works in the app, online and offline.
        </li>
      </ol>
    </section>
  );
}

export default function AccountOverview({ loaderData }: Route.ComponentProps) {
  const { user, plan } = loaderData;
  return (
    <div>
      <PageHeader title="Account" lead={`Signed in as ${user.email}`} />
      {plan.devicesInUse === 0 ? <NextSteps /> : null}
      <dl className="grid gap-4 sm:grid-cols-2">
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-5">
          <dt className="text-sm text-slate-400">Name</dt>
          <dd className="mt-1 text-lg font-semibold text-white">{user.name}</dd>
        </div>
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-5">
          <dt className="text-sm text-slate-400">Plan</dt>
          <dd className="mt-1 text-lg font-semibold text-white">{plan.name}</dd>
          <dd className="mt-1 text-sm text-slate-400">
            Desktop devices in use: {plan.devicesInUse} of {plan.deviceLimit}.{" "}
            <Link to="/pricing" className="link">
              Compare plans
            </Link>
          </dd>
        </div>
      </dl>
      <ul className="mt-8 flex flex-wrap gap-3">
        <li>
          <Link className="btn-secondary" to="/download">
            Download the app
          </Link>
        </li>
        <li>
          <Link className="btn-secondary" to="/account/security">
            Security
          </Link>
        </li>
        {user.role === "admin" ? (
          <li>
            <Link className="btn-secondary" to="/admin">
              Admin
            </Link>
          </li>
        ) : null}
      </ul>
      <div className="mt-8 md:hidden">
        <SignOutButton />
      </div>
    </div>
  );
}
