import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/auth";

export const meta: Route.MetaFunction = () => pageMeta("Log in", "Log in or create an account.");

export default function AuthPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Log in"} lead={"Log in or create an account."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
