import { requireSession } from "~/.server/auth/session";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Subscription", "Your plan and its renewal.");

/** Guarded by the route table; the loader makes every visit ask the server (and so the guard). */
export function loader({ context }: Route.LoaderArgs) {
  return { user: requireSession(context).user };
}

export default function SubscriptionPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Subscription"} lead={"Your plan and its renewal."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
