import { requireSession } from "~/.server/auth/session";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/subscriptions";

export const meta: Route.MetaFunction = () =>
  pageMeta("Subscriptions", "Subscriptions and their states.");

/** Guarded by the route table; the loader makes every visit ask the server (and so the guard). */
export function loader({ context }: Route.LoaderArgs) {
  return { user: requireSession(context).user };
}

export default function SubscriptionsPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Subscriptions"} lead={"Subscriptions and their states."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
