import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/pricing";

export const meta: Route.MetaFunction = () =>
  pageMeta("Pricing", "Plans and prices in Indian rupees.");

export default function PricingPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Pricing"} lead={"Plans and prices in Indian rupees."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
