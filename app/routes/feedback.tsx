import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/feedback";

export const meta: Route.MetaFunction = () =>
  pageMeta("Feedback", "Tell us what works, what does not, and what you need next.");

export default function FeedbackPage() {
  return (
    <div className="prose-page">
      <PageHeader
        title={"Feedback"}
        lead={"Tell us what works, what does not, and what you need next."}
      />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
