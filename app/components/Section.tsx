import type { ReactNode } from "react";

/** A titled card of the account and admin pages; the heading names the region. */
export function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <Card id={id} title={title}>
      <div className="mt-4">{children}</div>
    </Card>
  );
}

/** `Section`'s card with the content straight under the heading: it sets its own spacing. */
export function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-800 bg-slate-900 p-6">
      <h2 id={id} className="text-lg font-semibold text-white">
        {title}
      </h2>
      {children}
    </section>
  );
}
