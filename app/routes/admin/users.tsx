import { requireSession } from "~/.server/auth/session";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = () => pageMeta("Users", "Find and manage user accounts.");

/** Guarded by the route table; the loader makes every visit ask the server (and so the guard). */
export function loader({ context }: Route.LoaderArgs) {
  return { user: requireSession(context).user };
}

export default function UsersPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Users"} lead={"Find and manage user accounts."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
