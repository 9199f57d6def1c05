import { requireSession } from "~/.server/auth/session";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/fix-subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Fix a subscription", "Repair a customer’s subscription record.");

/** Guarded by the route table; the loader makes every visit ask the server (and so the guard). */
export function loader({ context }: Route.LoaderArgs) {
  return { user: requireSession(context).user };
}

export default function FixSubscriptionPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Fix a subscription"} lead={"Repair a customer’s subscription record."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
