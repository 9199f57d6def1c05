import type { Funnel } from "~/.server/analytics/funnel.server";
import { countOf } from "~/lib/format";
import { AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { formatDate } from "~/lib/dates";
import { FunnelBars, percent } from "./charts";

const num = (value: number) => value.toLocaleString("en-IN");

export function FunnelSection({
  funnel,
  rawEventsSince,
}: {
  funnel: Funnel;
  rawEventsSince: string | null;
}) {
  const [viewed, , , paid] = funnel.steps;
  return (
    <AdminSection
      id="funnel"
      title="Funnel"
      lead="Visitors who consented to analytics, counted once each: every step counts the visitors of the step before who also took it in the period. Paid is read from our payments."
    >
      {rawEventsSince ? (
        <p role="status" className="mb-4 text-sm text-amber-200">
          {`Raw events before ${formatDate(rawEventsSince, "long")} have been pruned (retention); the funnel counts from then.`}
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <FunnelBars
          summary={`${countOf(viewed?.visitors ?? 0, "visitor")} viewed pricing and ${num(paid?.visitors ?? 0)} paid: ${percent(paid?.overall ?? null)} overall.`}
          points={funnel.steps.map((step) => ({ label: step.label, value: step.visitors }))}
        />
        <AdminTable
          caption="Funnel steps"
          columns={[
            "Step",
            { label: "Visitors", alignRight: true },
            { label: "From the step before", alignRight: true },
            { label: "Overall", alignRight: true },
          ]}
        >
          {funnel.steps.map((step) => (
            <tr key={step.key} className={TR}>
              <th scope="row" className={`${TD} font-normal`}>
                {step.label}
              </th>
              <td className={TD_NUM}>{num(step.visitors)}</td>
              <td className={TD_NUM}>{percent(step.fromPrevious)}</td>
              <td className={TD_NUM}>{percent(step.overall)}</td>
            </tr>
          ))}
        </AdminTable>
      </div>
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <AdminTable
          caption="Funnel by billing cycle"
          columns={[
            "Billing cycle",
            { label: "Chose", alignRight: true },
            { label: "Began checkout", alignRight: true },
            { label: "Paid", alignRight: true },
          ]}
        >
          {funnel.byCycle.map((row) => (
            <tr key={row.cycle} className={TR}>
              <th scope="row" className={`${TD} font-normal`}>
                {row.cycle === "monthly" ? "Monthly" : "Yearly"}
              </th>
              <td className={TD_NUM}>{num(row.chose)}</td>
              <td className={TD_NUM}>{num(row.began)}</td>
              <td className={TD_NUM}>{num(row.paid)}</td>
            </tr>
          ))}
        </AdminTable>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div className="rounded-lg border border-slate-800 bg-slate-950 p-4">
            <dt className="text-slate-300">Signed up on the way</dt>
            <dd className="mt-1 text-2xl font-semibold text-white tabular-nums">
              {num(funnel.signedUp)}
            </dd>
            <dd className="mt-1 text-xs text-slate-400">of the visitors who viewed pricing</dd>
          </div>
          <div className="rounded-lg border border-slate-800 bg-slate-950 p-4">
            <dt className="text-slate-300">New subscriptions paid</dt>
            <dd className="mt-1 text-2xl font-semibold text-white tabular-nums">
              {num(funnel.payments.total)}
            </dd>
            <dd className="mt-1 text-xs text-slate-400">
              {`${num(funnel.payments.attributed)} of them in the funnel; the rest paid without analytics consent or without passing through pricing`}
            </dd>
          </div>
        </dl>
      </div>
    </AdminSection>
  );
}
