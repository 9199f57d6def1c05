import type { Traffic } from "~/.server/analytics/traffic.server";
import { countOf } from "~/lib/format";
import { AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { formatDate } from "~/lib/dates";
import { isPlatform, PLATFORMS } from "~/lib/platform";
import { ColumnChart } from "./charts";

const num = (value: number) => value.toLocaleString("en-IN");

function Empty({ columns, text }: { columns: number; text: string }) {
  return (
    <tr>
      <td colSpan={columns} className={`${TD} text-slate-400`}>
        {text}
      </td>
    </tr>
  );
}

export function TrafficSection({ traffic }: { traffic: Traffic }) {
  const visitors = traffic.days.reduce((total, day) => total + day.visitors, 0);
  const views = traffic.days.reduce((total, day) => total + day.pageViews, 0);
  return (
    <AdminSection
      id="acquisition"
      title="Acquisition and content"
      lead={`${num(views)} page views; ${num(visitors)} visitor-days (a visitor counts once a day). Consenting visitors only.`}
    >
      <ColumnChart
        summary={`Visitors per day, ${countOf(traffic.days.length, "day")}, ${countOf(visitors, "visitor-day")} in all.`}
        points={traffic.days.map((day) => ({ label: formatDate(day.day), value: day.visitors }))}
        xTitle="Day"
        yTitle="Visitors"
      />
      <details className="mt-3 text-sm text-slate-300">
        <summary className="cursor-pointer">Visitors and page views per day</summary>
        <div className="mt-3">
          <AdminTable
            caption="Visitors and page views per day"
            columns={[
              "Day",
              { label: "Visitors", alignRight: true },
              { label: "Page views", alignRight: true },
            ]}
          >
            {[...traffic.days].reverse().map((day) => (
              <tr key={day.day} className={TR}>
                <th scope="row" className={`${TD} whitespace-nowrap font-normal`}>
                  {formatDate(day.day)}
                </th>
                <td className={TD_NUM}>{num(day.visitors)}</td>
                <td className={TD_NUM}>{num(day.pageViews)}</td>
              </tr>
            ))}
          </AdminTable>
        </div>
      </details>

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <AdminTable caption="Top pages" columns={["Page", { label: "Views", alignRight: true }]}>
          {traffic.topPages.length === 0 ? <Empty columns={2} text="No page views." /> : null}
          {traffic.topPages.map((page) => (
            <tr key={page.path} className={TR}>
              <th scope="row" className={`${TD} break-all font-mono text-xs font-normal`}>
                {page.path}
              </th>
              <td className={TD_NUM}>{num(page.views)}</td>
            </tr>
          ))}
        </AdminTable>
        <AdminTable
          caption="Top search terms"
          columns={[
            "Search term",
            { label: "Searches", alignRight: true },
            { label: "No results", alignRight: true },
          ]}
        >
          {traffic.topSearches.length === 0 ? <Empty columns={3} text="No searches." /> : null}
          {traffic.topSearches.map((search) => (
            <tr key={search.term} className={TR}>
              <th scope="row" className={`${TD} break-all font-normal`}>
                {search.term}
              </th>
              <td className={TD_NUM}>{num(search.searches)}</td>
              <td className={TD_NUM}>{num(search.empty)}</td>
            </tr>
          ))}
        </AdminTable>
        <AdminTable
          caption="Searches with no results"
          columns={["Search term", { label: "Searches", alignRight: true }]}
        >
          {traffic.emptySearches.length === 0 ? (
            <Empty columns={2} text="Every search found something." />
          ) : null}
          {traffic.emptySearches.map((search) => (
            <tr key={search.term} className={TR}>
              <th scope="row" className={`${TD} break-all font-normal`}>
                {search.term}
              </th>
              <td className={TD_NUM}>{num(search.searches)}</td>
            </tr>
          ))}
        </AdminTable>
        <AdminTable
          caption="Calls to action clicked"
          columns={["Call to action", "Where", { label: "Clicks", alignRight: true }]}
        >
          {traffic.ctas.length === 0 ? <Empty columns={3} text="No clicks." /> : null}
          {traffic.ctas.map((cta) => (
            <tr key={`${cta.name}-${cta.location}`} className={TR}>
              <th scope="row" className={`${TD} font-normal`}>
                {cta.name}
              </th>
              <td className={TD}>{cta.location}</td>
              <td className={TD_NUM}>{num(cta.clicks)}</td>
            </tr>
          ))}
        </AdminTable>
        <AdminTable
          caption="Downloads per platform and version"
          columns={["Platform", "Version", { label: "Downloads", alignRight: true }]}
        >
          {traffic.downloads.length === 0 ? <Empty columns={3} text="No downloads." /> : null}
          {traffic.downloads.map((row) => (
            <tr key={`${row.platform}-${row.version}`} className={TR}>
              <th scope="row" className={`${TD} font-normal`}>
                {isPlatform(row.platform) ? PLATFORMS[row.platform].label : row.platform}
              </th>
              <td className={`${TD} font-mono text-xs`}>{row.version}</td>
              <td className={TD_NUM}>{num(row.downloads)}</td>
            </tr>
          ))}
        </AdminTable>
      </div>
    </AdminSection>
  );
}
