import { ScrollBox } from "~/components/ScrollBox";

/** Our record beside Razorpay's; differing rows are marked in words, not only in colour. */
export interface ComparisonView {
  providerSubscriptionId: string;
  fields: { label: string; ours: string; provider: string; differs: boolean }[];
  error: string | null;
  inSync: boolean;
}

export function ComparisonTable({ comparison }: { comparison: ComparisonView }) {
  if (comparison.error) return <p className="text-red-300">{comparison.error}</p>;
  const caption = `Our record and Razorpay's for ${comparison.providerSubscriptionId}`;
  return (
    <ScrollBox label={caption}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-800 text-slate-300">
            <th scope="col" className="py-2 pr-4 font-medium">
              Field
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Our record
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Razorpay
            </th>
          </tr>
        </thead>
        <tbody>
          {comparison.fields.map((field) => (
            <tr
              key={field.label}
              className={`border-b border-slate-800 ${field.differs ? "bg-yellow-950/40" : ""}`}
            >
              <th scope="row" className="py-2 pr-4 font-medium text-slate-200">
                {field.label}
                {field.differs ? (
                  <span className="ml-2 text-xs text-yellow-200">(differs)</span>
                ) : null}
              </th>
              <td className="py-2 pr-4 text-slate-100">{field.ours}</td>
              <td className="py-2 pr-4 text-slate-100">{field.provider}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
