import { requireSession } from "~/.server/auth/session";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = () => pageMeta("Profile", "Your name and email address.");

/** Guarded by the route table; the loader makes every visit ask the server (and so the guard). */
export function loader({ context }: Route.LoaderArgs) {
  return { user: requireSession(context).user };
}

export default function ProfilePage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Profile"} lead={"Your name and email address."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
