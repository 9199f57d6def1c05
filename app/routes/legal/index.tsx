import { Link } from "react-router";
import { listLegalPages } from "~/.server/content/legal.server";
import { formatDate } from "~/lib/dates";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";
import { publicPageHeaders } from "~/lib/cache-control";

const LEAD = "Terms, privacy, refunds, shipping, cookies and contact details.";

export function loader() {
  return { pages: listLegalPages() };
}

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () => pageMeta("Legal", LEAD);

export default function LegalIndexPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="prose-page">
      <PageHeader title="Legal" lead={LEAD} />
      <ul className="space-y-6">
        {loaderData.pages.map((page) => (
          <li key={page.slug} className="rounded-lg border border-slate-800 p-5">
            <h2 className="text-lg font-semibold">
              <Link to={`/legal/${page.slug}`} className="link">
                {page.title}
              </Link>
            </h2>
            <p className="mt-2 text-slate-300">{page.description}</p>
            <p className="mt-2 text-sm text-slate-300">
              Last updated <time dateTime={page.updated}>{formatDate(page.updated, "long")}</time>
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
