import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/login-success";

export const meta: Route.MetaFunction = () => pageMeta("Signed in", "Return to the desktop app.");

export default function LoginSuccessPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Signed in"} lead={"Return to the desktop app."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
