import { requireSession } from "~/.server/auth/session";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/usage";

export const meta: Route.MetaFunction = () =>
  pageMeta("Usage", "How you use the app, per device and per day.");

/** Guarded by the route table; the loader makes every visit ask the server (and so the guard). */
export function loader({ context }: Route.LoaderArgs) {
  return { user: requireSession(context).user };
}

export default function UsagePage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Usage"} lead={"How you use the app, per device and per day."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
