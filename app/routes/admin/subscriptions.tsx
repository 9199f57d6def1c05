import { Link } from "react-router";
import { planDistribution } from "~/.server/admin/plans.server";
import { requireSession } from "~/.server/auth/session";
import { AdminPage, AdminSection, TD, HeaderRow } from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/subscriptions";

export const meta: Route.MetaFunction = () =>
  pageMeta("Subscriptions", "Plans of the users, and subscriptions once billing is live.");

export async function loader({ context }: Route.LoaderArgs) {
  requireSession(context);
  const shares = await planDistribution();
  return { shares, total: shares.reduce((sum, share) => sum + share.users, 0) };
}

export default function SubscriptionsPage({ loaderData }: Route.ComponentProps) {
  const { shares, total } = loaderData;
  return (
    <AdminPage>
      <PageHeader title="Subscriptions" lead="Who is on which plan." />

      <p className="rounded-lg border border-slate-700 bg-slate-900 px-4 py-3 text-slate-200">
        There are no subscriptions yet: billing is not live, so every account uses its plan without
        paying. Subscriptions appear here once billing is live.
      </p>

      <AdminSection
        id="plan-distribution"
        title="Users per plan"
        lead={`${total.toLocaleString("en-IN")} ${total === 1 ? "user" : "users"} in all.`}
      >
        <table className="w-full max-w-lg">
          <caption className="sr-only">Number of users on each plan</caption>
          <HeaderRow columns={["Plan", { label: "Users", alignRight: true }]} />
          <tbody>
            {shares.map((share) => (
              <tr key={share.plan} className="border-b border-slate-800">
                <th scope="row" className={`${TD} font-medium`}>
                  {share.label}
                </th>
                <td className={`${TD} text-right tabular-nums`}>
                  {share.users.toLocaleString("en-IN")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-4 text-sm text-slate-300">
          To look at one customer, use{" "}
          <Link to="/admin-fix-subscription" className="link">
            Fix subscription
          </Link>
          .
        </p>
      </AdminSection>
    </AdminPage>
  );
}
