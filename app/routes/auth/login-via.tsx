import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/login-via";

export const meta: Route.MetaFunction = () =>
  pageMeta("Signing you in", "Continue signing in to the desktop app.");

export default function LoginViaPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Signing you in"} lead={"Continue signing in to the desktop app."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
