/** The pricing page's table comparing Free and Pro, feature by feature. */
import { ScrollBox } from "~/components/ScrollBox";
import { comparisonFor } from "~/config/pricing";
import type { Currency } from "~/lib/money";

export function PlanComparison({
  free,
  pro,
  currency = "INR",
}: {
  free: string;
  pro: string;
  currency?: Currency;
}) {
  return (
    <section aria-labelledby="compare" className="mx-auto mt-20 max-w-4xl">
      <h2 id="compare" className="text-2xl font-bold text-white">
        Compare plans
      </h2>
      <ScrollBox
        label="Table comparing the plans"
        className="mt-6 rounded-xl border border-slate-800"
      >
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-900 text-slate-200">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Feature
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                {free}
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                {pro}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-800 text-slate-300">
            {comparisonFor(currency).map((row) => (
              <tr key={row.feature}>
                <th scope="row" className="px-4 py-3 font-normal text-slate-200">
                  {row.feature}
                </th>
                <td className="px-4 py-3">
                  <Check value={row.free} />
                </td>
                <td className="px-4 py-3">
                  <Check value={row.pro} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </section>
  );
}

function Check({ value }: { value: string | boolean }) {
  if (typeof value === "string") return <span>{value}</span>;
  return value ? (
    <span className="text-green-400">
      <span aria-hidden="true">✓</span>
      <span className="sr-only">Included</span>
    </span>
  ) : (
    <span className="text-slate-400">
      <span aria-hidden="true">—</span>
      <span className="sr-only">Not included</span>
    </span>
  );
}
