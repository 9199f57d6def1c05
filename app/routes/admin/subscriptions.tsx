import { Form, Link } from "react-router";
import {
  billingStats,
  listSubscriptions,
  parseSubscriptionQuery,
  SUBSCRIPTIONS_PER_PAGE,
} from "~/.server/admin/billing.server";
import { planDistribution } from "~/.server/admin/plans.server";
import { requireAdmin } from "~/.server/auth/session";
import { statusText } from "~/.server/billing/overview.server";
import { AdminPage, AdminSection, HeaderRow, Stat, TD } from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { SUBSCRIPTION_STATUSES } from "~/.server/db/schema";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import { PAID_PLAN_IDS, planLabel } from "~/lib/plans";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/subscriptions";
import { ScrollBox } from "~/components/ScrollBox";

export const meta: Route.MetaFunction = () =>
  pageMeta("Subscriptions", "Subscriptions, revenue and plans.");

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const query = parseSubscriptionQuery(new URL(request.url).searchParams);
  const [stats, rows, shares] = await Promise.all([
    billingStats(),
    listSubscriptions(query),
    planDistribution(),
  ]);
  return {
    query,
    stats,
    shares,
    statuses: SUBSCRIPTION_STATUSES,
    perPage: SUBSCRIPTIONS_PER_PAGE,
    rows: rows.map((row) => ({
      ...row,
      plan: planLabel(row.planId),
      statusText: statusText(row),
      currentEnd: row.currentEnd?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

const SELECT =
  "mt-1 block rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none";

export default function SubscriptionsPage({ loaderData }: Route.ComponentProps) {
  const { query, stats, rows, shares, statuses, perPage } = loaderData;
  return (
    <AdminPage>
      <PageHeader title="Subscriptions" lead="Revenue, subscriptions and who is on which plan." />
      <dl className="grid gap-4 sm:grid-cols-3">
        <Stat
          label="MRR"
          value={stats.mrrPaise}
          display={formatInr(stats.mrrPaise)}
          hint="Yearly plans ÷ 12, GST included"
        />
        <Stat label="Active subscriptions" value={stats.activeSubscriptions} />
        <Stat label="Failed payments this month" value={stats.failedPaymentsThisMonth} />
      </dl>

      <AdminSection
        id="subscription-list"
        title="Subscriptions"
        lead={`Newest first, at most ${perPage}.`}
      >
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="filter-status" className="block text-sm text-slate-200">
              Status
            </label>
            <select id="filter-status" name="status" defaultValue={query.status} className={SELECT}>
              <option value="">Any</option>
              {statuses.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="filter-plan" className="block text-sm text-slate-200">
              Plan
            </label>
            <select id="filter-plan" name="plan" defaultValue={query.plan} className={SELECT}>
              <option value="">Any</option>
              {PAID_PLAN_IDS.map((plan) => (
                <option key={plan} value={plan}>
                  {planLabel(plan)}
                </option>
              ))}
            </select>
          </div>
          <div className="flex-1">
            <label htmlFor="filter-q" className="block text-sm text-slate-200">
              Email, sub_ or pay_ id
            </label>
            <input
              id="filter-q"
              name="q"
              defaultValue={query.q}
              className={`${SELECT} w-full`}
              maxLength={200}
            />
          </div>
          <button type="submit" className="btn-primary">
            Filter
          </button>
        </Form>
        {rows.length === 0 ? (
          <p className="text-slate-300">No subscription matches.</p>
        ) : (
          <ScrollBox label="Table of subscriptions">
            <table className="w-full">
              <caption className="sr-only">Subscriptions</caption>
              <HeaderRow
                columns={["Customer", "Plan", "Status", "Period ends", "Razorpay id", "Started"]}
              />
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} className="border-b border-slate-800">
                    <td className={TD}>
                      {row.email ? (
                        <Link
                          className="link"
                          to={`/admin-fix-subscription?email=${encodeURIComponent(row.email)}`}
                        >
                          {row.email}
                        </Link>
                      ) : (
                        "deleted account"
                      )}
                    </td>
                    <td className={TD}>{row.plan}</td>
                    <td className={TD}>{row.statusText}</td>
                    <td className={TD}>{row.currentEnd ? formatDate(row.currentEnd) : "—"}</td>
                    <td className={`${TD} font-mono text-xs`}>{row.providerSubscriptionId}</td>
                    <td className={TD}>{formatDate(row.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        )}
      </AdminSection>

      <AdminSection id="plan-distribution" title="Users per plan">
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
      </AdminSection>
    </AdminPage>
  );
}
