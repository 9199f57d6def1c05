import { Form } from "react-router";
import { requireAdmin } from "~/.server/auth/session";
import {
  invoicesInPeriod,
  parseInvoiceFilter,
  periodTotals,
} from "~/.server/invoices/queries.server";
import { AdminPage, AdminSection, HeaderRow, Stat, TD } from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { formatDate } from "~/lib/dates";
import { BILLING_STATES, stateByCode } from "~/lib/gst";
import { formatInr } from "~/lib/money";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/invoices";
import { ScrollBox } from "~/components/ScrollBox";

export const meta: Route.MetaFunction = () =>
  pageMeta("Invoices", "GST invoices and credit notes by month, with GSTR-1 export.");

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const filter = parseInvoiceFilter(new URL(request.url).searchParams);
  const rows = await invoicesInPeriod(filter);
  const query = new URLSearchParams({ month: filter.month });
  return {
    filter,
    totals: periodTotals(rows),
    exportQuery: query.toString(),
    rows: rows.map((row) => {
      const { document } = row;
      return {
        id: row.id,
        kind: row.kind,
        number: row.number,
        issuedAt: row.issuedAt.toISOString(),
        buyer: document.buyer.legalName,
        gstin: document.buyer.gstin,
        place: `${stateByCode(row.placeOfSupply)?.name ?? row.placeOfSupply} (${row.placeOfSupply})`,
        taxablePaise: row.taxablePaise,
        cgstPaise: row.cgstPaise,
        sgstPaise: row.sgstPaise,
        igstPaise: row.igstPaise,
        totalPaise: row.totalPaise,
      };
    }),
  };
}

const SELECT =
  "mt-1 block rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none max-w-full";

export default function AdminInvoicesPage({ loaderData }: Route.ComponentProps) {
  const { filter, totals, rows, exportQuery } = loaderData;
  const money = (paise: number) => (paise < 0 ? `−${formatInr(-paise)}` : formatInr(paise));
  return (
    <AdminPage>
      <PageHeader
        title="Invoices"
        lead="Tax invoices and credit notes issued, by month (India time)."
      />
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="filter-month" className="block text-sm text-slate-200">
            Month
          </label>
          <input
            id="filter-month"
            type="month"
            name="month"
            defaultValue={filter.month}
            className={SELECT}
          />
        </div>
        <div>
          <label htmlFor="filter-type" className="block text-sm text-slate-200">
            Buyers
          </label>
          <select id="filter-type" name="type" defaultValue={filter.type} className={SELECT}>
            <option value="">All</option>
            <option value="b2b">B2B (with GSTIN)</option>
            <option value="b2c">B2C</option>
          </select>
        </div>
        <div className="min-w-0 max-w-full">
          <label htmlFor="filter-state" className="block text-sm text-slate-200">
            Place of supply
          </label>
          <select id="filter-state" name="state" defaultValue={filter.state} className={SELECT}>
            <option value="">Any</option>
            {BILLING_STATES.map((state) => (
              <option key={state.code} value={state.code}>
                {`${state.name} (${state.code})`}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary">
          Show
        </button>
        <a className="btn-secondary" href={`/admin/invoices/gstr1.csv?${exportQuery}`} download>
          GSTR-1 CSV
        </a>
        <a className="btn-secondary" href={`/admin/invoices/documents.zip?${exportQuery}`} download>
          All PDFs (ZIP)
        </a>
      </Form>

      <dl className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
        <Stat label="Documents" value={totals.documents} />
        <Stat
          label="Taxable value"
          value={totals.taxablePaise}
          display={money(totals.taxablePaise)}
        />
        <Stat label="CGST" value={totals.cgstPaise} display={money(totals.cgstPaise)} />
        <Stat label="SGST" value={totals.sgstPaise} display={money(totals.sgstPaise)} />
        <Stat label="IGST" value={totals.igstPaise} display={money(totals.igstPaise)} />
        <Stat
          label="Total"
          value={totals.totalPaise}
          display={money(totals.totalPaise)}
          hint="Credit notes subtracted"
        />
      </dl>

      <AdminSection
        id="documents"
        title="Documents"
        lead="The export buttons take the whole month, whatever the other filters."
      >
        {rows.length === 0 ? (
          <p className="text-slate-300">Nothing issued in this period.</p>
        ) : (
          <ScrollBox label="Invoices and credit notes">
            <table className="w-full">
              <caption className="sr-only">Invoices and credit notes</caption>
              <HeaderRow
                columns={[
                  "Number",
                  "Date",
                  "Buyer",
                  "GSTIN",
                  "Place of supply",
                  "Taxable",
                  "CGST",
                  "SGST",
                  "IGST",
                  "Total",
                ]}
              />
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} className="border-b border-slate-800">
                    <td className={`${TD} font-mono text-xs`}>
                      <a className="link" href={`/invoices/${row.id}.pdf`}>
                        {row.number}
                      </a>
                      {row.kind === "credit_note" ? (
                        <span className="ml-1 font-sans">(credit note)</span>
                      ) : null}
                    </td>
                    <td className={TD}>{formatDate(row.issuedAt)}</td>
                    <td className={TD}>{row.buyer}</td>
                    <td className={`${TD} font-mono text-xs`}>{row.gstin ?? "—"}</td>
                    <td className={TD}>{row.place}</td>
                    <td className={`${TD} tabular-nums`}>{formatInr(row.taxablePaise)}</td>
                    <td className={`${TD} tabular-nums`}>{formatInr(row.cgstPaise)}</td>
                    <td className={`${TD} tabular-nums`}>{formatInr(row.sgstPaise)}</td>
                    <td className={`${TD} tabular-nums`}>{formatInr(row.igstPaise)}</td>
                    <td className={`${TD} tabular-nums`}>{formatInr(row.totalPaise)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        )}
      </AdminSection>
    </AdminPage>
  );
}
