import { Form, Link } from "react-router";
import {
  billingStats,
  listSubscriptions,
  parseSubscriptionQuery,
  SUBSCRIPTIONS_PER_PAGE,
} from "~/.server/admin/billing-reads.server";
import { planDistribution } from "~/.server/admin/plans.server";
import { requireAdmin } from "~/.server/auth/session";
import { statusText } from "~/.server/billing/overview.server";
import {
  AdminPage,
  AdminSection,
  FILTER_INPUT,
  FilterField,
  FilterSelect,
  Stat,
  TD,
  TD_NUM,
  AdminTable,
} from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { SUBSCRIPTION_STATUSES } from "~/.server/db/schema";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import { PAID_PLAN_IDS, planLabel } from "~/lib/plans";
import { customerPageById } from "~/lib/admin-paths";
import { pageMeta } from "~/lib/meta";
import { Pager } from "~/components/admin/Pager";
import type { Route } from "./+types/subscriptions";

export const meta: Route.MetaFunction = () =>
  pageMeta("Subscriptions", "Subscriptions, revenue and plans.");

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const query = parseSubscriptionQuery(new URL(request.url).searchParams);
  const [stats, list, shares] = await Promise.all([
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
    page: list.page,
    pageCount: list.pageCount,
    total: list.total,
    rows: list.rows.map((row) => ({
      ...row,
      plan: planLabel(row.planId),
      statusText: statusText(row),
      currentEnd: row.currentEnd?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

const ANY = { value: "", label: "Any" };
const PLANS = [ANY, ...PAID_PLAN_IDS.map((plan) => ({ value: plan, label: planLabel(plan) }))];

export default function SubscriptionsPage({ loaderData }: Route.ComponentProps) {
  const { query, stats, rows, shares, statuses, perPage, page, pageCount, total } = loaderData;
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
        <Stat
          label="Disputed, waiting for a decision"
          value={stats.disputedOpenPaise}
          display={`${formatInr(stats.disputedOpenPaise)} (${stats.disputedOpen})`}
        />
        <Stat
          label="Lost to disputes this month"
          value={stats.lostToDisputesThisMonthPaise}
          display={formatInr(stats.lostToDisputesThisMonthPaise)}
        />
      </dl>

      <AdminSection
        id="subscription-list"
        title="Subscriptions"
        lead={`Newest first, ${perPage} a page.`}
      >
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-3">
          <FilterSelect
            name="status"
            label="Status"
            defaultValue={query.status}
            options={[ANY, ...statuses.map((status) => ({ value: status, label: status }))]}
          />
          <FilterSelect name="plan" label="Plan" defaultValue={query.plan} options={PLANS} />
          <FilterField className="flex-1" name="q" label="Email, sub_ or pay_ id">
            <input
              id="filter-q"
              name="q"
              defaultValue={query.q}
              className={`${FILTER_INPUT} w-full`}
              maxLength={200}
            />
          </FilterField>
          <button type="submit" className="btn-primary">
            Filter
          </button>
        </Form>
        {rows.length === 0 ? (
          <p className="text-slate-300">No subscription matches.</p>
        ) : (
          <AdminTable
            caption="Subscriptions, newest first"
            columns={["Customer", "Plan", "Status", "Period ends", "Razorpay id", "Started"]}
          >
            {rows.map((row) => (
              <tr key={row.id} className="border-b border-slate-800">
                <td className={TD}>
                  {row.email && row.userId ? (
                    <Link className="link" to={customerPageById(row.userId)}>
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
          </AdminTable>
        )}
        <Pager
          label="Pages of subscriptions"
          path="/admin/subscriptions"
          filters={{ status: query.status, plan: query.plan, q: query.q }}
          page={page}
          pageCount={pageCount}
          total={total}
          noun={["subscription", "subscriptions"]}
        />
      </AdminSection>

      <AdminSection id="plan-distribution" title="Users per plan">
        <AdminTable
          caption="Number of users on each plan"
          className="max-w-lg"
          columns={["Plan", { label: "Users", alignRight: true }]}
        >
          {shares.map((share) => (
            <tr key={share.plan} className="border-b border-slate-800">
              <th scope="row" className={`${TD} font-medium`}>
                {share.label}
              </th>
              <td className={TD_NUM}>{share.users.toLocaleString("en-IN")}</td>
            </tr>
          ))}
        </AdminTable>
      </AdminSection>
    </AdminPage>
  );
}
