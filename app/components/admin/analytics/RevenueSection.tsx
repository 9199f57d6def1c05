import type { RevenueMonth } from "~/.server/analytics/revenue";
import { AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { formatInr } from "~/lib/money";
import { ColumnChart, percent } from "./charts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11" → "Nov 2026". */
export function monthLabel(month: string): string {
  const [year, index] = month.split("-");
  return `${MONTHS[Number(index) - 1] ?? ""} ${year ?? ""}`;
}

const inr = (paise: number) => formatInr(paise);
const maybeInr = (paise: number | null) => (paise === null ? "—" : formatInr(paise));

export function RevenueSection({ months }: { months: RevenueMonth[] }) {
  const last = months.at(-1);
  return (
    <AdminSection
      id="revenue"
      title="Revenue"
      lead="From our payment records, in rupees: GST included on sales in India, and a payment abroad at its rupee value as Razorpay converted it. MRR counts every subscription a payment covers at the month's end (yearly plans ÷ 12), so a cancelled plan counts until its paid period ends; the current month is measured now."
    >
      <ColumnChart
        summary={`MRR per month; ${last ? `${monthLabel(last.month)}: ${inr(last.mrrPaise)}` : "no data"}.`}
        points={months.map((month) => ({
          label: monthLabel(month.month),
          value: month.mrrPaise,
        }))}
        xTitle="Month"
        yTitle="MRR (₹, GST included)"
        formatValue={inr}
      />
      {last ? <MrrByCurrency month={last} /> : null}
      <div className="mt-4">
        <AdminTable
          caption="Revenue per month"
          columns={[
            "Month",
            { label: "MRR", alignRight: true },
            { label: "Subscribers", alignRight: true },
            { label: "New", alignRight: true },
            { label: "Expansion", alignRight: true },
            { label: "Contraction", alignRight: true },
            { label: "Churned", alignRight: true },
            { label: "Recovered", alignRight: true },
            { label: "Churn rate", alignRight: true },
            { label: "ARPU", alignRight: true },
            { label: "Refunds", alignRight: true },
            { label: "Credit notes", alignRight: true },
            { label: "Failed-payment recovery", alignRight: true },
          ]}
        >
          {[...months].reverse().map((month) => (
            <tr key={month.month} className={TR}>
              <th scope="row" className={`${TD} whitespace-nowrap font-normal`}>
                {monthLabel(month.month)}
              </th>
              <td className={TD_NUM}>{inr(month.mrrPaise)}</td>
              <td className={TD_NUM}>{month.subscribers}</td>
              <td className={TD_NUM}>{inr(month.newPaise)}</td>
              <td className={TD_NUM}>{inr(month.expansionPaise)}</td>
              <td className={TD_NUM}>{inr(month.contractionPaise)}</td>
              <td className={TD_NUM}>{inr(month.churnedPaise)}</td>
              <td className={TD_NUM}>{inr(month.recoveredPaise)}</td>
              <td className={TD_NUM}>{percent(month.churnRate)}</td>
              <td className={TD_NUM}>{maybeInr(month.arpuPaise)}</td>
              <td className={TD_NUM}>{`${inr(month.refundsPaise)} (${month.refunds})`}</td>
              <td className={TD_NUM}>{`${inr(month.creditNotesPaise)} (${month.creditNotes})`}</td>
              <td className={TD_NUM}>
                {month.failedSubscriptions === 0
                  ? "—"
                  : `${month.recoveredSubscriptions} of ${month.failedSubscriptions} (${percent(month.recoveryRate)})`}
              </td>
            </tr>
          ))}
        </AdminTable>
      </div>
    </AdminSection>
  );
}

/** The latest MRR split by the currency its subscriptions pay in, each in rupees (issue 56). */
function MrrByCurrency({ month }: { month: RevenueMonth }) {
  const parts = Object.entries(month.mrrByCurrency).sort(([a], [b]) =>
    a === "INR" ? -1 : b === "INR" ? 1 : a.localeCompare(b),
  );
  if (parts.length === 0) return null;
  return (
    <p className="mt-3 text-sm text-slate-300" data-testid="mrr-by-currency">
      {`MRR by currency, ${monthLabel(month.month)}: `}
      {parts
        .map(([currency, paise]) =>
          currency === "INR" ? `sold in rupees ${inr(paise)}` : `sold in ${currency} ${inr(paise)}`,
        )
        .join(" · ")}
    </p>
  );
}
