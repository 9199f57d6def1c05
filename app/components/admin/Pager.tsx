import { Link } from "react-router";
import { countOf } from "~/lib/format";
import { pageHref } from "~/lib/paging";

/**
 * Previous and next links under an admin list, with "Page 2 of 7" and how many there are in all.
 * Plain links: they work without scripts, and each page has its own address.
 */
export function Pager({
  label,
  path,
  filters,
  page,
  pageCount,
  total,
  noun,
}: {
  /** Names the navigation landmark: "Pages of users". */
  label: string;
  path: string;
  filters: Record<string, string>;
  page: number;
  pageCount: number;
  total: number;
  /** What is counted, singular and plural: ["user", "users"]. */
  noun: readonly [string, string];
}) {
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      {page > 1 ? (
        <Link to={pageHref(path, filters, page - 1)} className="btn-secondary" rel="prev">
          Previous page
        </Link>
      ) : null}
      <p className="text-slate-300">
        {pageCount > 1 ? `Page ${page} of ${pageCount} · ` : ""}
        {countOf(total, noun[0], noun[1])}
      </p>
      {page < pageCount ? (
        <Link to={pageHref(path, filters, page + 1)} className="btn-secondary" rel="next">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}
