/** A team's tax invoices and credit notes, on its page for its owner and billing managers. */
import type { TeamPage } from "~/.server/teams/team-page.server";
import { Section } from "~/components/Section";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";

export function TeamInvoices({ invoices }: { invoices: NonNullable<TeamPage["invoices"]> }) {
  return (
    <Section id="invoices" title="Invoices">
      {invoices.length === 0 ? (
        <p className="text-slate-300">
          No invoices yet: each payment for the team's seats gets a GST tax invoice here.
        </p>
      ) : (
        <ul className="divide-y divide-slate-800">
          {invoices.map((row) => (
            <li key={row.id} className="flex flex-wrap items-center gap-3 py-2">
              <span className="min-w-0 flex-1 text-slate-200">
                {`${row.kind === "invoice" ? "Tax invoice" : "Credit note"} ${row.number}, ${formatDate(row.issuedAt)}`}
              </span>
              <span className="text-slate-200">{formatInr(row.totalPaise)}</span>
              <a className="link" href={`/invoices/${row.id}.pdf`}>
                PDF<span className="sr-only">{` of ${row.number}`}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
