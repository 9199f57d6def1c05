import { requireSession } from "~/.server/auth/session";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/billing";

export const meta: Route.MetaFunction = () =>
  pageMeta("Billing", "Payment method and billing details.");

/** Guarded by the route table; the loader makes every visit ask the server (and so the guard). */
export function loader({ context }: Route.LoaderArgs) {
  return { user: requireSession(context).user };
}

export default function BillingPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Billing"} lead={"Payment method and billing details."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
