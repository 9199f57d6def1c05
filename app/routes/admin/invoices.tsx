import { Form } from "react-router";
import { requireAdmin } from "~/.server/auth/session";
import {
  invoicesInPeriod,
  parseInvoiceFilter,
  periodTotals,
} from "~/.server/invoices/queries.server";
import {
  AdminPage,
  AdminSection,
  AdminTable,
  FILTER_INPUT,
  FilterField,
  FilterSelect,
  Stat,
  TD,
  TD_NUM,
} from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { formatDate } from "~/lib/dates";
import { BILLING_STATES, stateByCode } from "~/lib/gst";
import { formatInr } from "~/lib/money";
import { pageMeta } from "~/lib/meta";
import { pageWindow, requestedPage } from "~/lib/paging";
import { Pager } from "~/components/admin/Pager";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = () =>
  pageMeta("Invoices", "GST invoices and credit notes by month, with GSTR-1 export.");

/** A month's documents are listed this many a page (the totals and exports cover them all). */
const INVOICES_PER_PAGE = 100;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const search = new URL(request.url).searchParams;
  const filter = parseInvoiceFilter(search);
  const rows = await invoicesInPeriod(filter);
  const query = new URLSearchParams({ month: filter.month });
  // The totals are the whole month's; the list shows one page of it.
  const window = pageWindow(requestedPage(search), rows.length, INVOICES_PER_PAGE);
  return {
    filter,
    totals: periodTotals(rows),
    exportQuery: query.toString(),
    page: window.page,
    pageCount: window.pageCount,
    rows: rows.slice(window.offset, window.offset + INVOICES_PER_PAGE).map((row) => {
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

const SELECT = `${FILTER_INPUT} max-w-full`;

const BUYER_TYPES = [
  { value: "", label: "All" },
  { value: "b2b", label: "B2B (with GSTIN)" },
  { value: "b2c", label: "B2C" },
];
const PLACES = [
  { value: "", label: "Any" },
  ...BILLING_STATES.map((state) => ({ value: state.code, label: `${state.name} (${state.code})` })),
];

export default function AdminInvoicesPage({ loaderData }: Route.ComponentProps) {
  const { filter, totals, rows, exportQuery, page, pageCount } = loaderData;
  const money = (paise: number) => (paise < 0 ? `−${formatInr(-paise)}` : formatInr(paise));
  return (
    <AdminPage>
      <PageHeader
        title="Invoices"
        lead="Tax invoices and credit notes issued, by month (India time)."
      />
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <FilterField name="month" label="Month">
          <input
            id="filter-month"
            type="month"
            name="month"
            defaultValue={filter.month}
            className={SELECT}
          />
        </FilterField>
        <FilterSelect
          name="type"
          label="Buyers"
          defaultValue={filter.type}
          options={BUYER_TYPES}
          selectClassName={SELECT}
        />
        <FilterSelect
          className="min-w-0 max-w-full"
          name="state"
          label="Place of supply"
          defaultValue={filter.state}
          options={PLACES}
          selectClassName={SELECT}
        />
        <button type="submit" className="btn-primary">
          Show
        </button>
        <a className="btn-secondary" href={`/admin/invoices/gstr1.csv?${exportQuery}`} download>
          GSTR-1 CSV
        </a>
        <a
          className="btn-secondary"
          href={`/admin/invoices/gstr1-offline.zip?${exportQuery}`}
          download
        >
          GSTR-1 for the offline tool (ZIP)
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
          <AdminTable
            caption="Invoices and credit notes"
            columns={[
              "Number",
              "Date",
              "Buyer",
              "GSTIN",
              "Place of supply",
              { label: "Taxable", alignRight: true },
              { label: "CGST", alignRight: true },
              { label: "SGST", alignRight: true },
              { label: "IGST", alignRight: true },
              { label: "Total", alignRight: true },
            ]}
          >
            {rows.map((row) => (
              <tr key={row.id} className="border-b border-slate-800">
                <td className={`${TD} font-mono text-xs whitespace-nowrap`}>
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
                <td className={TD_NUM}>{formatInr(row.taxablePaise)}</td>
                <td className={TD_NUM}>{formatInr(row.cgstPaise)}</td>
                <td className={TD_NUM}>{formatInr(row.sgstPaise)}</td>
                <td className={TD_NUM}>{formatInr(row.igstPaise)}</td>
                <td className={TD_NUM}>{formatInr(row.totalPaise)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
        <Pager
          label="Pages of documents"
          path="/admin/invoices"
          filters={{ month: filter.month, type: filter.type, state: filter.state }}
          page={page}
          pageCount={pageCount}
          total={totals.documents}
          noun={["document", "documents"]}
        />
      </AdminSection>
    </AdminPage>
  );
}
