import type { ReactNode } from "react";

export function PageHeader({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: string;
  children?: ReactNode;
}) {
  return (
    <div className="mb-8">
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
      {lead ? <p className="mt-3 text-lg text-slate-300">{lead}</p> : null}
      {children}
    </div>
  );
}
