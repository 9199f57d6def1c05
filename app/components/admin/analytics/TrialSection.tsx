import type { TrialFunnel } from "~/.server/analytics/trial-funnel.server";
import { AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { formatDate } from "~/lib/dates";
import { percent } from "./charts";

const share = (count: number, of: number) => `${count} (${percent(of === 0 ? null : count / of)})`;

/** The free trials started in the period, by India week: started → used the app → paid. */
export function TrialSection({ trials, trialDays }: { trials: TrialFunnel; trialDays: number }) {
  const { weeks, total } = trials;
  return (
    <AdminSection
      id="trials"
      title="Free trials"
      lead={`Trials started in the period, by the week they started (Monday to Sunday, India time). "Used the app": a computer signed in while the trial ran. "Paid": a payment since the trial started; a plan set to start when the trial ends counts once its first charge is paid. "Still on trial": running now and not paid yet.${trialDays === 0 ? " New trials are off (TRIAL_DAYS=0)." : ""}`}
    >
      {weeks.length === 0 ? (
        <p className="text-sm text-slate-300">No trial started in this period.</p>
      ) : (
        <AdminTable
          caption="Free trials by week started"
          columns={[
            "Week of",
            { label: "Started", alignRight: true },
            { label: "Used the app", alignRight: true },
            { label: "Paid", alignRight: true },
            { label: "Still on trial", alignRight: true },
          ]}
        >
          {[...weeks].reverse().map((week) => (
            <tr key={week.weekOf} className={TR}>
              <th scope="row" className={`${TD} whitespace-nowrap font-normal`}>
                {formatDate(week.weekOf)}
              </th>
              <td className={TD_NUM}>{week.started}</td>
              <td className={TD_NUM}>{share(week.usedApp, week.started)}</td>
              <td className={TD_NUM}>{share(week.paid, week.started)}</td>
              <td className={TD_NUM}>{week.running}</td>
            </tr>
          ))}
          <tr className={TR}>
            <th scope="row" className={`${TD} font-semibold`}>
              All weeks
            </th>
            <td className={TD_NUM}>{total.started}</td>
            <td className={TD_NUM}>{share(total.usedApp, total.started)}</td>
            <td className={TD_NUM}>{share(total.paid, total.started)}</td>
            <td className={TD_NUM}>{total.running}</td>
          </tr>
        </AdminTable>
      )}
    </AdminSection>
  );
}
