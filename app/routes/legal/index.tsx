import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () =>
  pageMeta("Legal", "Terms, privacy, refunds, shipping, cookies and contact details.");

export default function IndexPage() {
  return (
    <div className="prose-page">
      <PageHeader
        title={"Legal"}
        lead={"Terms, privacy, refunds, shipping, cookies and contact details."}
      />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
