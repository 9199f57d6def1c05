/** A term and its value in a card's list ("Status", "Next charge", …). */
export function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-300">{term}</dt>
      <dd className="mt-1 font-semibold text-white">{children}</dd>
    </div>
  );
}
