import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { countOf } from "~/lib/format";
import { z } from "zod";
import {
  ANALYTICS_DAYS,
  dashboardStats,
  newestFeedback,
  setFeedbackStatus,
} from "~/.server/admin/dashboard.server";
import { billingStats } from "~/.server/admin/billing-reads.server";
import { activeVersionShare, downloadsPerDay } from "~/.server/releases/stats.server";
import { feedbackCategoryLabel, feedbackStatusSchema } from "~/lib/feedback";
import { formatInr } from "~/lib/money";
import { staleLanes } from "~/.server/admin/jobs.server";
import { requireAdmin } from "~/.server/auth/session";
import { done, formAction } from "~/.server/forms/action.server";
import { AppError } from "~/.server/http/errors";
import { LANES } from "~/.server/jobs/define";
import { formatDateTime } from "~/lib/dates";
import { AdminPage, AdminSection, Stat, TD, TD_NUM, AdminTable } from "~/components/admin/AdminUi";
import { ChartsWhenHydrated } from "~/components/admin/LazyReleaseCharts";
import { RetentionSummary } from "~/components/admin/RetentionSummary";
import { BreakableEmail } from "~/components/admin/BreakableEmail";
import { retentionStats } from "~/.server/retention/stats.server";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { isPlatform, PLATFORMS } from "~/lib/platform";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/dashboard";
import { StuckLanesAlert } from "~/components/admin/StuckLanesAlert";
import { TodayQueue } from "~/components/admin/TodayQueue";
import { BackupNotice } from "~/components/admin/BackupNotice";
import { backupOverview, healthOf } from "~/.server/backup/backup-runs.server";
import { todayQueue } from "~/.server/admin/today.server";
import { sellingAbroadStatus } from "~/.server/billing/selling-abroad.server";
import { exportsWaitingForRate } from "~/.server/invoices/reference-rates.server";
import { SellingAbroadNotice } from "~/components/admin/SellingAbroadNotice";

export const meta: Route.MetaFunction = () => pageMeta("Admin", "Operator overview.");

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const now = new Date();
  const [today, stats, feedback, billing, downloads, versions, stuck, backups, waiting, retention] =
    await Promise.all([
      todayQueue(),
      dashboardStats(),
      newestFeedback(),
      billingStats(),
      downloadsPerDay(30),
      activeVersionShare(),
      staleLanes(),
      backupOverview(now),
      exportsWaitingForRate(),
      retentionStats(),
    ]);
  return {
    today: {
      ...today,
      dunning: today.dunning.map((row) => ({
        ...row,
        nextRetryAt: row.nextRetryAt?.toISOString() ?? null,
      })),
      failedToday: today.failedToday.map((row) => ({ ...row, at: row.at.toISOString() })),
      waiting: today.waiting.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
      refundRequests: today.refundRequests.map((row) => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
      })),
      disputes: today.disputes.map((row) => ({
        ...row,
        respondBy: row.respondBy?.toISOString() ?? null,
      })),
    },
    backups: healthOf(backups, now),
    abroad: { ...sellingAbroadStatus(now), waitingForRate: waiting.length },
    retention,
    stuckLanes: stuck.map((lane) => ({ ...lane, label: LANES[lane.lane].label })),
    stats,
    feedback,
    billing,
    analyticsDays: ANALYTICS_DAYS,
    downloads,
    versions: versions.slice(0, 8),
  };
}

const actionSchema = z.object({
  intent: z.literal("feedback-status"),
  id: z.uuid(),
  status: feedbackStatusSchema,
});

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    actionSchema,
    async ({ intent, id, status }) => {
      if (!(await setFeedbackStatus(id, status)))
        throw new AppError("not_found", "That message no longer exists.");
      return done(intent, `The message is marked ${status}.`);
    },
    {
      role: "admin",
      invalidMessage: "That request was not understood. Reload the page and try again.",
    },
  );
}

const STATUS_CLASSES: Record<z.infer<typeof feedbackStatusSchema>, string> = {
  new: "bg-green-950 text-green-300 ring-green-700",
  read: "bg-slate-800 text-slate-200 ring-slate-600",
  closed: "bg-slate-950 text-slate-300 ring-slate-700",
};

function platformLabel(platform: string): string {
  return isPlatform(platform) ? PLATFORMS[platform].label : platform;
}

export default function DashboardPage({ loaderData, actionData }: Route.ComponentProps) {
  const {
    today,
    stats,
    feedback,
    billing,
    analyticsDays,
    downloads,
    versions,
    stuckLanes,
    backups,
  } = loaderData;
  const downloadsTotal = downloads.reduce((sum, row) => sum + row.downloads, 0);
  const pending = usePendingForms();

  return (
    <AdminPage>
      <PageHeader title="Admin" lead="What needs attention, at a glance." />
      <BackupNotice health={backups} />
      <SellingAbroadNotice status={loaderData.abroad} />
      <StuckLanesAlert lanes={stuckLanes} />
      <TodayQueue queue={today} />

      <AdminSection id="counts" title="Counts">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <Stat
            label="MRR"
            value={billing.mrrPaise}
            display={formatInr(billing.mrrPaise)}
            hint="Yearly plans ÷ 12, GST included"
          />
          <Stat label="Active subscriptions" value={billing.activeSubscriptions} />
          <Stat label="Failed payments this month" value={billing.failedPaymentsThisMonth} />
          <Stat
            label="Disputed, undecided"
            value={billing.disputedOpenPaise}
            display={`${formatInr(billing.disputedOpenPaise)} (${billing.disputedOpen})`}
          />
          <Stat label="Users" value={stats.users.total} />
          <Stat label="Verified users" value={stats.users.verified} />
          <Stat label="Admins" value={stats.users.admins} />
          <Stat label="Active desktop devices" value={stats.activeDevices} />
          <Stat label="New feedback" value={stats.newFeedback} />
        </dl>
      </AdminSection>
      <RetentionSummary stats={loaderData.retention} withReasons={false} settingsLink />

      <AdminSection
        id="release-stats"
        title="Downloads and app versions"
        lead={`${countOf(downloadsTotal, "download")} in the last 30 days.`}
      >
        <ChartsWhenHydrated downloads={downloads} versions={versions} />
        <details className="mt-4 text-sm text-slate-300">
          <summary className="cursor-pointer">The numbers</summary>
          <div className="mt-3 grid gap-6 sm:grid-cols-2">
            <AdminTable
              caption="Downloads per day in the last 30 days"
              columns={["Day", { label: "Downloads", alignRight: true }]}
            >
              {downloads.map((row) => (
                <tr key={row.day} className="border-b border-slate-800">
                  <th scope="row" className={`${TD} font-normal`}>
                    {row.day}
                  </th>
                  <td className={TD_NUM}>{row.downloads}</td>
                </tr>
              ))}
            </AdminTable>
            <AdminTable
              caption="App versions in use in the last 30 days"
              columns={[
                "Version",
                { label: "Apps", alignRight: true },
                { label: "Share", alignRight: true },
              ]}
            >
              {versions.map((row) => (
                <tr key={row.version} className="border-b border-slate-800">
                  <th scope="row" className={`${TD} font-mono text-xs font-normal`}>
                    {row.version}
                  </th>
                  <td className={TD_NUM}>{row.count.toLocaleString("en-IN")}</td>
                  <td className={TD_NUM}>{(row.share * 100).toFixed(1)}%</td>
                </tr>
              ))}
            </AdminTable>
          </div>
        </details>
      </AdminSection>

      <div className="grid gap-6 lg:grid-cols-2">
        <AdminSection
          id="downloads"
          title="Downloads"
          lead={
            stats.latestRelease
              ? `Latest stable release, version ${stats.latestRelease.version}.`
              : undefined
          }
        >
          {stats.latestRelease && stats.latestRelease.platforms.length > 0 ? (
            <AdminTable
              caption={`Downloads per platform of version ${stats.latestRelease.version}`}
              columns={["Platform", { label: "Downloads", alignRight: true }]}
            >
              {stats.latestRelease.platforms.map((row) => (
                <tr key={row.platform} className="border-b border-slate-800">
                  <th scope="row" className={`${TD} font-medium`}>
                    {platformLabel(row.platform)}
                  </th>
                  <td className={TD_NUM}>{row.downloads.toLocaleString("en-IN")}</td>
                </tr>
              ))}
            </AdminTable>
          ) : (
            <p className="text-slate-300">No stable release has been published yet.</p>
          )}
        </AdminSection>

        <AdminSection
          id="events"
          title="Analytics events"
          lead={`The ten most frequent in the last ${analyticsDays} days.`}
        >
          {stats.topEvents.length > 0 ? (
            <AdminTable
              caption={`Analytics events in the last ${analyticsDays} days by name`}
              columns={["Event", { label: "Count", alignRight: true }]}
            >
              {stats.topEvents.map((row) => (
                <tr key={row.name} className="border-b border-slate-800">
                  <th scope="row" className={`${TD} font-mono text-xs font-normal`}>
                    {row.name}
                  </th>
                  <td className={TD_NUM}>{row.count.toLocaleString("en-IN")}</td>
                </tr>
              ))}
            </AdminTable>
          ) : (
            <p className="text-slate-300">No events in the last {analyticsDays} days.</p>
          )}
        </AdminSection>
      </div>

      <AdminSection id="feedback" title="Newest feedback">
        {actionData ? (
          <div className="mb-4">
            <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
          </div>
        ) : null}
        {feedback.length === 0 ? (
          <p className="text-slate-300">No feedback yet.</p>
        ) : (
          <AdminTable
            caption="The ten newest feedback messages"
            columns={["Received", "From", "Category", "Rating", "Message", "Status", ""]}
          >
            {feedback.map((item) => (
              <tr key={item.id} className="border-b border-slate-800">
                <td className={`${TD} whitespace-nowrap`}>
                  <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
                </td>
                <th scope="row" className={`${TD} max-w-56 font-normal`}>
                  {/* Break long addresses at the @ and dots, never mid-word. */}
                  <span className="[overflow-wrap:anywhere]">
                    <BreakableEmail email={item.email} />
                  </span>
                </th>
                <td className={TD}>{feedbackCategoryLabel(item.category)}</td>
                <td className={`${TD} tabular-nums`}>
                  {item.rating === null ? (
                    <span className="text-slate-400">none</span>
                  ) : (
                    `${item.rating} of 5`
                  )}
                </td>
                <td className={`${TD} max-w-md`}>
                  <p className="line-clamp-3 whitespace-pre-line">{item.message}</p>
                </td>
                <td className={TD}>
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs ring-1 ${STATUS_CLASSES[item.status]}`}
                  >
                    {item.status}
                  </span>
                </td>
                <td className={TD}>
                  <Form method="post" className="flex flex-nowrap gap-2 whitespace-nowrap">
                    <input type="hidden" name="intent" value="feedback-status" />
                    <input type="hidden" name="id" value={item.id} />
                    {item.status !== "read" ? (
                      <button
                        type="submit"
                        name="status"
                        value="read"
                        className="btn-secondary px-3 py-1"
                        disabled={pending({ intent: "feedback-status", fields: { id: item.id } })}
                        aria-label={`Mark read: the message from ${item.email}`}
                      >
                        Mark read
                      </button>
                    ) : null}
                    {item.status !== "closed" ? (
                      <button
                        type="submit"
                        name="status"
                        value="closed"
                        className="btn-secondary px-3 py-1"
                        disabled={pending({ intent: "feedback-status", fields: { id: item.id } })}
                        aria-label={`Close: the message from ${item.email}`}
                      >
                        Close
                      </button>
                    ) : null}
                  </Form>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </AdminPage>
  );
}
