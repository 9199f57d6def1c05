import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = () => pageMeta("Search", "Search the blog and the site.");

export default function SearchPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Search"} lead={"Search the blog and the site."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
