import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/landing";

export const meta: Route.MetaFunction = () =>
  pageMeta("Build firmware faster", "A focused look at what the app does for embedded developers.");

export default function LandingPage() {
  return (
    <div className="prose-page">
      <PageHeader
        title={"Build firmware faster"}
        lead={"A focused look at what the app does for embedded developers."}
      />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
