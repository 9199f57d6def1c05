import { data } from "react-router";
import { PageHeader } from "~/components/PageHeader";
import { LEGAL_PAGES } from "~/lib/legal-pages";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/page";

export function loader({ params }: Route.LoaderArgs) {
  const page = LEGAL_PAGES.find((candidate) => candidate.slug === params.page);
  if (!page) throw data(null, { status: 404 });
  return { title: page.title, description: page.description };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData ? pageMeta(loaderData.title, loaderData.description) : [];

export default function LegalPage({ loaderData }: Route.ComponentProps) {
  return (
    <article className="prose-page">
      <PageHeader title={loaderData.title} lead={loaderData.description} />
      <p className="text-slate-400">This page is not available yet.</p>
    </article>
  );
}
