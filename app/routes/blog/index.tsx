import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () =>
  pageMeta("Blog", "Notes on embedded development and product news.");

export default function IndexPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Blog"} lead={"Notes on embedded development and product news."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
